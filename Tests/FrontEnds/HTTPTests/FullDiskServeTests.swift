import Foundation
import SQLiteDB
import TestSupport
import Testing

/// Issue 32 item 2, over HTTP: the home on a real file system of 4 MiB (tmpfs) filled to its last
/// page. Before, `vocab serve` did not start (exit 74, "SQLite error 10: disk I/O error"); once it
/// ran and the disk filled, ratings got 500 `internal` without Retry-After while /healthz said ok.
@Suite("vocab serve on a full disk: it starts and answers reads; a rating is refused with 503 and Retry-After until there is space", .serialized)
struct FullDiskServeTests {
    @Test func aRatingRefusedForAFullDiskIsStoredOnceThereIsSpace() async throws {
        let dir = try TemporaryDirectory("full-disk-serve")
        defer { dir.remove() }
        let disk = try SmallDisk(at: dir.file("home"))
        defer { disk.unmount() }
        let (env, token, item) = try RatingLoad.home(dir)
        try disk.fill()

        let server = try await ServeProcess.start(environment: env)
        defer { server.process.signal(SIGTERM) }
        let auth = ["Authorization": "Bearer \(token)"]
        #expect(try await RawHTTP.get(port: server.port, "/v1/words/cat").status == 200, "started on a full disk, it answers reads")
        let library = try await RawHTTP.get(port: server.port, "/v1/me/library", headers: auth)
        #expect(library.status == 200 && library.text.contains("cat"), "\(library.status) \(library.text.prefix(200))")
        let before = try await health(server.port)
        #expect(before["status"] as? String == "ok", "nothing failed yet: \(before)")

        func rate(_ id: String) async throws -> RawResponse {
            try await RawHTTP.get(
                port: server.port, "/v1/me/reviews", method: "POST",
                headers: auth.merging(["Content-Type": "application/json"]) { a, _ in a },
                body: Array("{\"item\":\(item),\"rating\":\"good\",\"clientId\":\"\(id)\"}".utf8))
        }
        // The log may have room for a few ratings, from its earlier length; then the disk refuses.
        var acknowledged: [String] = []
        var refusal: (id: String, response: RawResponse)?
        for n in 0..<500 {
            let r = try await rate("full-\(n)")
            if r.status == 200 {
                acknowledged.append("full-\(n)")
            } else {
                refusal = ("full-\(n)", r)
                break
            }
        }
        let (id, refused) = try #require(refusal, "the disk refused a rating")
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(refused.header("retry-after") == "30")
        let error = try refused.error()
        #expect(error["code"] as? String == "disk_full", "\(error)")
        #expect(error["message"] as? String == "the disk is full, so nothing was stored; try again once there is space.")
        #expect(try clientIDs(dir) == acknowledged, "every acknowledged rating once, nothing of the refused one")

        let degraded = try await health(server.port)
        #expect(degraded["status"] as? String == "degraded", "\(degraded)")
        #expect((degraded["reason"] as? String)?.contains("the disk is full") == true, "\(degraded)")
        #expect((degraded["database"] as? [String: Any])?["state"] as? String == "full", "\(degraded)")
        #expect(try await RawHTTP.get(port: server.port, "/v1/words/dog").status == 200, "reads are still answered")

        disk.free()
        let again = try await rate(id)
        #expect(again.status == 200, "with space again the same rating is stored: \(again.status) \(again.text)")
        #expect(try clientIDs(dir) == acknowledged + [id])
        let recovered = try await health(server.port)
        #expect(recovered["status"] as? String == "ok" && recovered["reason"] == nil, "\(recovered)")
        #expect((recovered["database"] as? [String: Any])?["state"] as? String == "up")
        #expect(try await server.stop(signal: SIGTERM) == 0, "\(server.stderr.suffix(500))")
        let check = try Database(path: dir.file("home/user.sqlite"), mode: .readOnly)
        #expect(try check.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    /// Issue 42: a clip the server cannot store answered 500 `internal` without Retry-After while
    /// /healthz said ok. Now a new clip is refused as a rating is, and a clip made before plays.
    @Test func aNewClipOnAFullDiskIsRefusedWith503WhileOneMadeBeforeStillPlays() async throws {
        let dir = try TemporaryDirectory("full-disk-clips")
        defer { dir.remove() }
        let disk = try SmallDisk(at: dir.file("home"))
        defer { disk.unmount() }
        let (env, _, _) = try RatingLoad.home(dir)
        let server = try await ServeProcess.start(environment: env)
        defer { server.process.signal(SIGTERM) }
        let made = try await RawHTTP.get(port: server.port, "/v1/audio/cat?accent=american")
        #expect(made.status == 200, "\(made.status) \(made.text.prefix(200))")
        try disk.fill()

        let again = try await RawHTTP.get(port: server.port, "/v1/audio/cat?accent=american")
        #expect(again.status == 200 && again.body == made.body, "a clip made before is played from the full disk: \(again.status)")
        let refused = try await RawHTTP.get(port: server.port, "/v1/audio/dog?accent=american")
        #expect(refused.status == 503, "\(refused.status) \(refused.text.prefix(300))")
        #expect(refused.header("retry-after") == "30")
        let error = try refused.error()
        #expect(error["code"] as? String == "disk_full", "\(error)")
        #expect(error["message"] as? String == "the disk is full, so nothing was stored; try again once there is space.")
        let degraded = try await health(server.port)
        #expect(degraded["status"] as? String == "degraded", "\(degraded)")
        #expect((degraded["reason"] as? String)?.contains("a new clip could not be stored") == true, "\(degraded)")
        #expect(!contents(dir.file("home")).contains { $0.contains("writing") }, "no half-written clip is left: \(contents(dir.file("home")))")

        disk.free()
        let stored = try await RawHTTP.get(port: server.port, "/v1/audio/dog?accent=american")
        #expect(stored.status == 200, "with space again the clip is made: \(stored.status)")
        let recovered = try await health(server.port)
        #expect(recovered["status"] as? String == "ok" && recovered["reason"] == nil, "\(recovered)")
        #expect(try await server.stop(signal: SIGTERM) == 0, "\(server.stderr.suffix(500))")
    }

    /// Every path under `root`, relative to it.
    func contents(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
    }

    func health(_ port: Int) async throws -> [String: Any] {
        let r = try await RawHTTP.get(port: port, "/healthz")
        #expect(r.status == 200, "\(r.status) \(r.text)")
        return try r.object()
    }

    /// The client ids of the stored ratings, in the order they were stored.
    func clientIDs(_ dir: TemporaryDirectory) throws -> [String] {
        try Database(path: dir.file("home/user.sqlite"), mode: .readOnly).query("SELECT client_id FROM reviews ORDER BY id") { $0.text(0) ?? "" }
    }
}

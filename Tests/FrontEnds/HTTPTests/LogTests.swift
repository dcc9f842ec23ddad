import Foundation
import SQLiteDB
import TestSupport
import Testing

/// What `vocab serve` writes to its log, read from the real process: JSON lines when asked, a
/// request id on every line of a request and in its answer, and no secret it was given.
@Suite("The server's log: JSON lines, request ids, no secrets", .serialized)
struct LogTests {
    @Test(
        "--log-format json: every line is a JSON object; each request's line carries the id its X-Request-Id header gives (the client's own when plausible), from the router and from the repeated-request lane; no token, password, cookie or CSRF token appears anywhere in the log"
    )
    func jsonLinesWithRequestIDsAndNoSecrets() async throws {
        let dir = try TemporaryDirectory("vocab-log")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let env = ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
        let added = try runProcess(Repository.vocabExecutable, ["users", "add", "anna", "--json"], environment: env)
        let token = try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["token"] as? String)
        let password = "correct horse battery staple"
        #expect(try runProcess(Repository.vocabExecutable, ["users", "passwd", "anna"], environment: env, input: password + "\n").status == 0)

        let server = try await ServeProcess.start(environment: env, arguments: ["--log-format", "json"])
        var ids: [String: String] = [:]
        for round in 0..<3 {
            // The second and third are answered by the repeated-request lane.
            let r = try await RawHTTP.get(port: server.port, "/v1/categories")
            ids["categories \(round)"] = try #require(r.header("x-request-id"))
        }
        let traced = try await RawHTTP.get(port: server.port, "/v1/words/cat", headers: ["X-Request-Id": "trace-42"])
        #expect(traced.header("x-request-id") == "trace-42", "a plausible client id is kept")
        let long = String(repeating: "x", count: 65)
        let odd = try await RawHTTP.get(port: server.port, "/v1/words/cat", headers: ["X-Request-Id": long])
        #expect(odd.header("x-request-id") != nil && odd.header("x-request-id") != long, "an implausible id is replaced")
        let me = try await RawHTTP.get(port: server.port, "/v1/me", headers: ["Authorization": "Bearer \(token)"])
        #expect(me.status == 200)
        let signIn = try await RawHTTP.get(
            port: server.port, "/v1/session", method: "POST",
            headers: ["Content-Type": "application/json"], body: Array(#"{"name":"anna","password":"\#(password)"}"#.utf8))
        #expect(signIn.status == 200)
        let cookie = try #require(signIn.sessionCookie)
        let csrf = try #require(try signIn.object()["csrf"] as? String)
        let viaCookie = try await RawHTTP.get(
            port: server.port, "/v1/me/library", method: "POST",
            headers: ["Cookie": cookie, "X-CSRF-Token": csrf, "Content-Type": "application/json"],
            body: Array(#"{"word":"cat"}"#.utf8))
        #expect(viaCookie.status == 201)
        let missing = try await RawHTTP.get(port: server.port, "/v1/words/zebra")
        let missingID = try #require(missing.header("x-request-id"))
        #expect(try await server.stop(signal: SIGTERM) == 0)

        let log = server.stderr
        let lines = log.split(separator: "\n")
        #expect(lines.count >= 9)
        var requests: [[String: Any]] = []
        for line in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                Issue.record("not a JSON object: \(line.prefix(120))")
                continue
            }
            #expect(object["ts"] is String && object["level"] is String && object["msg"] is String)
            if object["msg"] as? String == "request" { requests.append(object) }
        }
        for request in requests {
            #expect((request["request_id"] as? String)?.isEmpty == false, "\(request)")
            #expect(request["status"] is NSNumber && request["duration_ms"] is NSNumber)
        }
        let logged = Set(requests.compactMap { $0["request_id"] as? String })
        for (label, id) in ids { #expect(logged.contains(id), "\(label): \(id) is not in the log") }
        #expect(logged.contains("trace-42") && logged.contains(missingID))
        let cookieValue = String(cookie.split(separator: "=", maxSplits: 1).last ?? "")
        for (name, secret) in [("token", token), ("password", password), ("cookie", cookieValue), ("csrf", csrf)] {
            #expect(!secret.isEmpty && !log.contains(secret), "the \(name) is in the log")
        }
    }
}

/// A restart under load, as `systemctl restart` does it: SIGTERM while ratings arrive.
@Suite("SIGTERM while ratings arrive", .serialized)
struct GracefulStopTests {
    @Test(
        "every rating acknowledged before or during the stop is stored exactly once; the server exits 0 within its 30 s; requests after it get no answer rather than a lost one"
    )
    func noAcknowledgedRatingIsLost() async throws {
        let dir = try TemporaryDirectory("vocab-sigterm")
        defer { dir.remove() }
        let (env, token, item) = try RatingLoad.home(dir)
        let server = try await ServeProcess.start(environment: env)
        let load = RatingLoad()
        // Eight clients rate without pause; after 150 acknowledgements the server gets SIGTERM.
        try await withThrowingTaskGroup(of: Void.self) { group in
            load.run(port: server.port, token: token, item: item, in: &group)
            try await load.waitFor(150)
            // The raters keep sending while the server stops: what it acknowledged meanwhile counts too.
            #expect(try await server.stop(signal: SIGTERM) == 0, "\(server.stderr.suffix(300))")
            load.finished = true
            try await group.waitForAll()
        }
        let ids = load.acknowledged
        #expect(ids.count >= 150)
        let check = try Database(path: dir.file("home/user.sqlite"), mode: .readOnly)
        let stored = Set(try check.query("SELECT client_id FROM reviews") { $0.text(0) ?? "" })
        let lost = ids.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) acknowledged ratings were lost: \(lost.prefix(5))")
        #expect(try check.scalar("SELECT count(*) - count(DISTINCT client_id) FROM reviews")?.intValue == 0, "each once")
        print("SIGTERM under load: \(ids.count) ratings acknowledged, \(stored.count) stored, 0 lost")
    }
}

/// `vocab backup` while the server takes ratings, restored into another home.
@Suite("A backup under write load", .serialized)
struct BackupUnderLoadTests {
    @Test("a backup made while eight clients rate holds every rating acknowledged before it began; restored into an empty home, they are all there")
    func backupWhileRating() async throws {
        let dir = try TemporaryDirectory("vocab-backup-load")
        defer { dir.remove() }
        let (env, token, item) = try RatingLoad.home(dir)
        let server = try await ServeProcess.start(environment: env)
        let load = RatingLoad()
        var before: [String] = []
        let backupFile = dir.file("backup.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            load.run(port: server.port, token: token, item: item, in: &group)
            try await load.waitFor(100)
            before = load.acknowledged
            let backup = try runProcess(Repository.vocabExecutable, ["backup", "--out", backupFile], environment: env)
            #expect(backup.status == 0, "\(backup.stderr)")
            load.finished = true
            try await group.waitForAll()
        }
        #expect(try await server.stop(signal: SIGTERM) == 0)
        // Elsewhere: an empty home, restored from the file.
        let elsewhere = ["VOCAB_HOME": dir.file("restored"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
        let restore = try runProcess(Repository.vocabExecutable, ["restore", backupFile], environment: elsewhere)
        #expect(restore.status == 0, "\(restore.stderr)")
        let stored = Set(try Database(path: dir.file("restored/user.sqlite"), mode: .readOnly).query("SELECT client_id FROM reviews") { $0.text(0) ?? "" })
        let missing = before.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(before.count) acknowledged ratings are not in the backup")
        print("backup under load: \(before.count) ratings acknowledged before it began, \(stored.count) in the restored copy, 0 missing")
    }
}

/// Clients rating one item as fast as they can through a real server, each rating with a
/// client id; what the server acknowledged, in order.
final class RatingLoad: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    private var done = false
    var acknowledged: [String] { lock.withLock { ids } }
    var finished: Bool {
        get { lock.withLock { done } }
        set { lock.withLock { done = newValue } }
    }

    /// Runs `clients` raters until `finished` is set (or, once it is, their next request fails).
    func run(port: Int, token: String, item: Int64, clients: Int = 8, in group: inout ThrowingTaskGroup<Void, any Error>) {
        let authorization = "Bearer \(token)"
        for client in 0..<clients {
            group.addTask { [self] in
                var n = 0
                while !finished {
                    let id = "c\(client)-\(n)"
                    n += 1
                    let body = Array("{\"item\":\(item),\"rating\":\"good\",\"clientId\":\"\(id)\"}".utf8)
                    guard
                        let r = try? await RawHTTP.get(
                            port: port, "/v1/me/reviews", method: "POST",
                            headers: ["Authorization": authorization, "Content-Type": "application/json"], body: body)
                    else { continue }
                    if r.status == 200 { lock.withLock { ids.append(id) } }
                }
            }
        }
    }

    func waitFor(_ count: Int) async throws {
        while acknowledged.count < count { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// A learner with one saved word in a fresh fixture home: the environment, the token and the item.
    static func home(_ dir: TemporaryDirectory) throws -> (env: [String: String], token: String, item: Int64) {
        try ServerFixture.write(in: dir)
        let env = ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
        let added = try runProcess(Repository.vocabExecutable, ["users", "add", "anna", "--json"], environment: env)
        let token = try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["token"] as? String)
        #expect(try runProcess(Repository.vocabExecutable, ["library", "add", "cat", "--user", "anna"], environment: env).status == 0)
        let item = try #require(try Database(path: dir.file("home/user.sqlite"), mode: .readOnly).scalar("SELECT id FROM items LIMIT 1")?.intValue)
        return (env, token, item)
    }
}

import Foundation
import Mandarin
import TestSupport
import Testing

/// Two `vocab serve` processes on one real PostgreSQL database, as they would run behind a load
/// balancer: what one writes the other reads, and a catalog change made anywhere reaches the
/// other's cached answers through LISTEN/NOTIFY.
@Suite("vocab serve --database: two instances on one PostgreSQL", .serialized)
struct PostgresServeTests {
    struct Setup {
        let dir: TemporaryDirectory
        let url: String
        let token: String
        var environment: [String: String] {
            ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
        }

        func vocab(_ arguments: [String]) async throws -> ProcessResult {
            try await runProcessOnThread(Repository.vocabExecutable, arguments, environment: environment)
        }
    }

    /// A catalog and a learner made with the command line, then moved into a fresh database.
    /// `moe`: the sample dictionary imported first, so that `db push` loads it too.
    static func setUp(on server: TestPostgres? = nil, moe: Bool = false) async throws -> Setup {
        let dir = try TemporaryDirectory("serve-pg")
        try ServerFixture.write(in: dir)
        try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        if moe { _ = try MOEImporter(databasePath: dir.file("home") + "/moe.sqlite").importFile(at: ServerFixture.moeSample) }
        let url = try (server ?? TestPostgres.shared()).createDatabase("serve")
        var setup = Setup(dir: dir, url: url, token: "")
        let added = try await setup.vocab(["users", "add", "anna", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let token = try #require(try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])["token"] as? String
        setup = Setup(dir: dir, url: url, token: token ?? "")
        for command in [["db", "push"], ["db", "copy-users"]] {
            let result = try await setup.vocab(command + ["--database", url])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        return setup
    }

    /// An integer a query returns, read with psql on the shared test server.
    static func count(_ url: String, _ sql: String) async throws -> Int {
        Int(try await TestPostgres.shared().query(sql, database: url.postgresDatabaseName)) ?? 0
    }

    func send(
        _ server: ServeProcess, _ method: String, _ target: String, token: String? = nil, json: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> RawResponse {
        var all = headers
        if let token { all["Authorization"] = "Bearer \(token)" }
        if json != nil { all["Content-Type"] = "application/json" }
        return try await RawHTTP.get(port: server.port, target, method: method, headers: all, body: json.map { Array($0.utf8) })
    }

    @Test("a word saved and rated through one instance is seen through the other; a stale version is refused there")
    func reviewsAreShared() async throws {
        let setup = try await Self.setUp()
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let b = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])

        let saved = try await send(a, "POST", "/v1/me/library", token: setup.token, json: #"{"word":"cat"}"#)
        #expect(saved.status == 201, "\(saved.status) \(saved.text)")
        let items = try #require(try saved.object()["items"] as? [[String: Any]])
        let item = try #require(items.first?["id"] as? Int)
        let rated = try await send(a, "POST", "/v1/me/reviews", token: setup.token, json: #"{"item":\#(item),"rating":"good","version":0}"#)
        #expect(rated.status == 200, "\(rated.status) \(rated.text)")

        // B reads the card A rated: a rating from version 0 is stale there, from version 1 it applies.
        let stale = try await send(b, "POST", "/v1/me/reviews", token: setup.token, json: #"{"item":\#(item),"rating":"good","version":0}"#)
        #expect(stale.status == 409, "\(stale.status) \(stale.text)")
        #expect(try stale.error()["code"] as? String == "stale_card")
        let next = try await send(b, "POST", "/v1/me/reviews", token: setup.token, json: #"{"item":\#(item),"rating":"good","version":1}"#)
        #expect(next.status == 200, "\(next.status) \(next.text)")
        let library = try await send(a, "GET", "/v1/me/library", token: setup.token)
        #expect(library.status == 200 && library.text.contains("\"reps\":2"), "\(library.text)")

        let health = try await send(b, "GET", "/healthz")
        let database = try #require(try health.object()["database"] as? [String: Any])
        #expect(database["engine"] as? String == "postgresql" && database["state"] as? String == "up")
        #expect(try await a.stop(signal: SIGTERM) == 0, "\(a.stderr.suffix(500))")
        #expect(try await b.stop(signal: SIGTERM) == 0, "\(b.stderr.suffix(500))")
    }

    @Test("/metrics on PostgreSQL: the pool's leased connections, statements waiting and their waits; no SQLite pools or commit times")
    func metricsShowThePool() async throws {
        let setup = try await Self.setUp()
        defer { setup.dir.remove() }
        let server = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url, "--metrics-port", "0"])
        let port = try await MetricsTests.metricsPort(of: server)
        let saved = try await send(server, "POST", "/v1/me/library", token: setup.token, json: #"{"word":"cat"}"#)
        #expect(saved.status == 201, "\(saved.status) \(saved.text)")
        let scraped = try await RawHTTP.get(port: port, "/metrics")
        #expect(try await server.stop(signal: SIGTERM) == 0)
        let families = try MetricsTests.parse(scraped.text)
        let pools = Set(MetricsTests.samples(families, "vocab_pool_in_use").compactMap { $0.labels["pool"] })
        #expect(pools.contains("postgres") && !pools.contains("learners.writes") && !pools.contains("learners.reads"), "\(pools)")
        #expect((MetricsTests.waits(families, pool: "postgres") ?? 0) >= 2, "the token's learner and the saved word")
        #expect(MetricsTests.samples(families, "vocab_pool_in_use").first { $0.labels["pool"] == "postgres" }?.value == 0)
        #expect(families["vocab_db_commit_seconds"] == nil)
    }

    @Test("both instances give the same ETag; a catalog push replaces the other's cached answer")
    func catalogChangesReachTheOtherInstance() async throws {
        let setup = try await Self.setUp()
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let b = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])

        let fromA = try await send(a, "GET", "/v1/words/cat")
        let fromB = try await send(b, "GET", "/v1/words/cat")
        #expect(fromA.status == 200 && fromB.status == 200)
        #expect(fromA.header("etag") != nil && fromA.header("etag") == fromB.header("etag"))
        #expect(fromB.text.contains("con mèo"))
        // Cached in B now; the category files change and are pushed to the database.
        #expect(try await send(b, "GET", "/v1/words/cat").text.contains("con mèo"))
        try setup.dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", name: "Animals", order: 1,
                words: [
                    CatalogFixture.word("cat", vi: "mèo nhà"), CatalogFixture.word("dog", vi: "con chó"),
                ]))
        let push = try await setup.vocab(["db", "push", "--database", setup.url])
        #expect(push.status == 0, "\(push.stderr)")
        // The notification arrives on its own time: wait for it (bounded), without a timing claim.
        var seen = ""
        for _ in 0..<200 {
            seen = try await send(b, "GET", "/v1/words/cat").text
            if seen.contains("mèo nhà") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen.contains("mèo nhà"), "B still answers \(seen)")
        let newA = try await send(a, "GET", "/v1/words/cat")
        let newB = try await send(b, "GET", "/v1/words/cat")
        #expect(newA.header("etag") == newB.header("etag") && newA.header("etag") != fromA.header("etag"))
        #expect(try await a.stop(signal: SIGTERM) == 0)
        #expect(try await b.stop(signal: SIGTERM) == 0)
    }

    @Test("the Mandarin dictionary from PostgreSQL: /v1/moe/行 with no moe.sqlite in the home; a push reaches the other instance's cached answers")
    func mandarinFromTheDatabase() async throws {
        let setup = try await Self.setUp()
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let b = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        // Nothing pushed yet: as an embedded server without an import answers.
        for target in ["/v1/moe/%E8%A1%8C", "/v1/moe/strokes/6", "/v1/moe/%E8%A1%8C/audio"] {
            let r = try await send(a, "GET", target)
            #expect(r.status == 404, "\(target): \(r.status) \(r.text)")
            #expect(try r.error()["code"] as? String == "dictionary_not_imported", "\(target)")
        }
        #expect(try await send(a, "GET", "/healthz").object()["moe"] as? Bool == false)

        // Imported and pushed from another home folder: the serving home never has moe.sqlite.
        func push(_ fixture: String, into home: String) async throws {
            var environment = setup.environment
            environment["VOCAB_HOME"] = setup.dir.file(home)
            let imported = try await runProcessOnThread(Repository.vocabExecutable, ["import", "moe", fixture], environment: environment)
            #expect(imported.status == 0, "\(imported.stderr)")
            let pushed = try await runProcessOnThread(Repository.vocabExecutable, ["db", "push", "--database", setup.url], environment: environment)
            #expect(pushed.status == 0 && pushed.stdout.contains("Pushed the Mandarin dictionary"), "\(pushed.stdout)\(pushed.stderr)")
        }
        try await push(Repository.moeSample, into: "moe-home")
        #expect(!FileManager.default.fileExists(atPath: setup.dir.file("home/moe.sqlite")))

        let xing = try await send(b, "GET", "/v1/moe/%E8%A1%8C")
        #expect(xing.status == 200, "\(xing.status) \(xing.text)")
        let entry = try #require((try xing.object()["entries"] as? [[String: Any]])?.first)
        #expect(entry["radical"] as? String == "行" && entry["strokeCount"] as? Int == 6)
        #expect((entry["readings"] as? [[String: Any]])?.compactMap { $0["pinyin"] as? String } == ["xíng", "háng", "xìng", "hàng"])
        #expect(try await send(b, "GET", "/healthz").object()["moe"] as? Bool == true)
        let search = try await send(b, "GET", "/v1/moe/search?pinyin=xing&limit=5")
        #expect(search.status == 200, "\(search.text)")
        #expect(try search.object()["total"] as? Int == 19)
        #expect(try await send(b, "GET", "/v1/moe/radical/%E6%B0%B5").object()["total"] as? Int == 10) // 氵
        // The word of the day draws from the database's copy: the same entry as from moe.sqlite.
        let today = try await send(b, "GET", "/v1/moe/today?date=2026-03-01")
        #expect(today.status == 200, "\(today.text)")
        #expect((try today.object()["entry"] as? [String: Any])?["title"] as? String == "汪")
        // The search across sources finds titles and readings in the database's dictionary too.
        let across = try await send(b, "GET", "/v1/search?q=%E8%A1%8C&source=moe&limit=3")
        #expect(across.status == 200, "\(across.text)")
        let page = try across.object()
        #expect(page["total"] as? Int == 11, "titles containing 行: \(across.text)")
        let first = try #require((page["results"] as? [[String: Any]])?.first)
        #expect(first["title"] as? String == "行" && first["reading"] as? String == "xíng" && (first["gloss"] as? String)?.isEmpty == false)
        // The audio route reads the title's readings from the database too.
        let reading = try await send(b, "GET", "/v1/moe/%E8%A1%8C/audio?reading=zzz")
        #expect(reading.status == 404, "\(reading.text)")
        #expect(try reading.error()["code"] as? String == "unknown_reading")
        #expect(reading.text.contains("háng"))

        // Cached in B now; a push of a dictionary without 行 reaches it through NOTIFY.
        #expect(try await send(b, "GET", "/v1/moe/%E8%A1%8C").status == 200)
        try await push(Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-issue16.json", into: "moe-home-2")
        var status = 0
        for _ in 0..<200 {
            status = try await send(b, "GET", "/v1/moe/%E8%A1%8C").status
            if status == 404 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(status == 404, "B still answers 行 from the dictionary pushed before")
        #expect(try await send(a, "GET", "/v1/moe/%E4%B8%80%E5%AE%9A").status == 200) // 一定
        // A learner saves a Mandarin word from the database's dictionary too.
        let saved = try await send(a, "POST", "/v1/me/library", token: setup.token, json: #"{"word":"一定"}"#)
        #expect(saved.status == 201, "\(saved.status) \(saved.text)")
        #expect(saved.text.contains("\"source\":\"moe\""), "\(saved.text)")
        #expect(try await a.stop(signal: SIGTERM) == 0, "\(a.stderr.suffix(500))")
        #expect(try await b.stop(signal: SIGTERM) == 0, "\(b.stderr.suffix(500))")
    }

    @Test("a database without a catalog: serve refuses to start and says what to run")
    func emptyDatabase() async throws {
        let dir = try TemporaryDirectory("serve-pg-empty")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let url = try TestPostgres.shared().createDatabase("empty")
        let result = try await runProcessOnThread(
            Repository.vocabExecutable, ["serve", "--port", "0", "--database", url],
            environment: ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories")])
        #expect(result.status == 66, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("vocab db push"), "\(result.stderr)")
    }
}

/// Faults under load: an instance killed, the database stopped and started. Ratings carry a
/// client id, so what was acknowledged can be looked up in the database afterwards.
@Suite("vocab serve --database under faults", .serialized)
struct PostgresFaultTests {
    /// Sends ratings (without a version, each with a new client id) until `stop` says so;
    /// returns every answer's status with its client id.
    static func rateUntil(_ server: ServeProcess, token: String, item: Int, prefix: String, stop: @escaping @Sendable () -> Bool)
        async -> [(status: Int, clientID: String)]
    {
        var out: [(Int, String)] = []
        var n = 0
        while !stop() {
            n += 1
            let id = "\(prefix)-\(n)"
            let body = #"{"item":\#(item),"rating":"good","clientId":"\#(id)"}"#
            let status =
                (try? await RawHTTP.get(
                    port: server.port, "/v1/me/reviews", method: "POST",
                    headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                    body: Array(body.utf8)
                ).status) ?? 0 // 0: no answer (connection refused or reset)
            out.append((status, id))
        }
        return out
    }

    static func acknowledged(_ answers: [(status: Int, clientID: String)]) -> Set<String> {
        Set(answers.filter { $0.status == 200 }.map(\.clientID))
    }

    static func savedItem(_ server: ServeProcess, token: String, word: String) async throws -> Int {
        let saved = try await RawHTTP.get(
            port: server.port, "/v1/me/library", method: "POST",
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: Array(#"{"word":"\#(word)"}"#.utf8))
        let items = try #require(try saved.object()["items"] as? [[String: Any]], "\(saved.status) \(saved.text)")
        return try #require(items.first?["id"] as? Int)
    }

    @Test("kill -9 of one instance under load: every rating either instance acknowledged is in the database")
    func killedInstance() async throws {
        let setup = try await PostgresServeTests.setUp()
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let b = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let item = try await Self.savedItem(a, token: setup.token, word: "cat")
        let done = Flag()
        let loads = (0..<4).map { i in
            Task { await Self.rateUntil(i % 2 == 0 ? a : b, token: setup.token, item: item, prefix: "w\(i)", stop: { done.isSet }) }
        }
        // Let some ratings through A, then kill it mid-stream.
        while try await PostgresServeTests.count(setup.url, "SELECT count(*) FROM reviews") < 40 { try await Task.sleep(for: .milliseconds(20)) }
        a.process.signal(SIGKILL)
        while try await PostgresServeTests.count(setup.url, "SELECT count(*) FROM reviews") < 80 { try await Task.sleep(for: .milliseconds(20)) }
        done.set()
        var answers: [(status: Int, clientID: String)] = []
        for load in loads { answers += await load.value }
        let stored = try await Set(
            TestPostgres.shared().query("SELECT client_id FROM reviews", database: setup.url.postgresDatabaseName)
                .split(separator: "\n").map(String.init))
        let acknowledged = Self.acknowledged(answers)
        #expect(!acknowledged.isEmpty && acknowledged.isSubset(of: stored), "lost: \(acknowledged.subtracting(stored).sorted().prefix(10))")
        #expect(answers.allSatisfy { [0, 200].contains($0.status) }, "\(Set(answers.map(\.status)))")
        // The card counts every stored rating once: no update was lost between the instances.
        let reps = try await PostgresServeTests.count(setup.url, "SELECT reps FROM cards WHERE item_id = \(item)")
        #expect(reps == stored.count)
        #expect(try await b.stop(signal: SIGTERM) == 0)
    }

    @Test(
        "PostgreSQL frozen (every process stopped): /healthz still answers, within its own deadline, degraded and unavailable, and still says the dictionary is there; thawed, up again"
    )
    func frozenDatabase() async throws {
        let server = try TestPostgres.startPrivate()
        defer { server.stop() }
        let setup = try await PostgresServeTests.setUp(on: server, moe: true)
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let up = try await RawHTTP.get(port: a.port, "/healthz").text
        #expect(up.contains("\"state\":\"up\"") && up.contains("\"moe\":true"), "\(up)")
        try server.freeze()
        // Each answer comes (no timing claim beyond the client's own limit); it says degraded.
        let frozen = try await RawHTTP.get(port: a.port, "/healthz")
        try server.thaw()
        #expect(frozen.status == 200, "\(frozen.status) \(frozen.text)")
        #expect(frozen.text.contains("\"status\":\"degraded\"") && frozen.text.contains("\"state\":\"unavailable\""), "\(frozen.text)")
        #expect(frozen.text.contains("\"moe\":true"), "a database out of reach has not lost its dictionary: \(frozen.text)")
        var after = ""
        for _ in 0..<100 {
            after = try await RawHTTP.get(port: a.port, "/healthz").text
            if after.contains("\"state\":\"up\"") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(after.contains("\"state\":\"up\""), "\(after)")
        #expect(try await a.stop(signal: SIGTERM) == 0)
    }

    @Test("PostgreSQL stopped and started under load: 503 while it is down (cached reads still 200), then it recovers; nothing acknowledged is lost")
    func databaseRestart() async throws {
        let server = try TestPostgres.startPrivate()
        defer { server.stop() }
        let setup = try await PostgresServeTests.setUp(on: server)
        defer { setup.dir.remove() }
        let a = try await ServeProcess.start(environment: setup.environment, arguments: ["--database", setup.url])
        let item = try await Self.savedItem(a, token: setup.token, word: "cat")
        #expect(try await RawHTTP.get(port: a.port, "/v1/words/dog").status == 200) // cached from now on
        let done = Flag()
        let loads = (0..<4).map { i in Task { await Self.rateUntil(a, token: setup.token, item: item, prefix: "r\(i)", stop: { done.isSet }) } }
        try await Task.sleep(for: .milliseconds(500))
        try server.pause()
        // While it is down: the cached catalog answer still comes; health says the database is unavailable.
        var health = ""
        for _ in 0..<200 {
            health = try await RawHTTP.get(port: a.port, "/healthz").text
            if health.contains("unavailable") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(health.contains("\"state\":\"unavailable\"") && health.contains("degraded"), "\(health)")
        #expect(try await RawHTTP.get(port: a.port, "/v1/words/dog").status == 200)
        let refused = try await RawHTTP.get(
            port: a.port, "/v1/me/reviews", method: "POST",
            headers: ["Authorization": "Bearer \(setup.token)", "Content-Type": "application/json"],
            body: Array(#"{"item":\#(item),"rating":"good"}"#.utf8))
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        #expect(try refused.error()["code"] as? String == "database_unavailable")
        // As openapi.json documents it, on a learner route and on a catalog route not yet cached.
        let doc = try OpenAPITests.document()
        let rate = try #require(doc.operations.first { $0.method == "POST" && $0.path == "/v1/me/reviews" })
        try OpenAPITests.check(refused, against: rate, in: doc, label: "POST /v1/me/reviews while PostgreSQL is down")
        let uncached = try await RawHTTP.get(port: a.port, "/v1/search?q=hor")
        #expect(uncached.status == 503 && (try? uncached.error()["code"] as? String) == "database_unavailable", "\(uncached.status) \(uncached.text)")
        let search = try #require(doc.operations.first { $0.method == "GET" && $0.path == "/v1/search" })
        try OpenAPITests.check(uncached, against: search, in: doc, label: "GET /v1/search while PostgreSQL is down")
        #expect(try refused.error()["code"] as? String == "database_unavailable")
        try server.resume()
        // Recovery by itself: ratings are acknowledged again (bounded wait, no timing claim).
        var recovered = false
        for _ in 0..<600 where !recovered {
            let r = try await RawHTTP.get(
                port: a.port, "/v1/me/reviews", method: "POST",
                headers: ["Authorization": "Bearer \(setup.token)", "Content-Type": "application/json"],
                body: Array(#"{"item":\#(item),"rating":"good","clientId":"probe-\#(UUID().uuidString)"}"#.utf8))
            recovered = r.status == 200
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered)
        done.set()
        var answers: [(status: Int, clientID: String)] = []
        for load in loads { answers += await load.value }
        #expect(answers.allSatisfy { [200, 503].contains($0.status) }, "only 503 besides 200: \(Set(answers.map(\.status)))")
        #expect(answers.contains { $0.status == 503 })
        let stored = try await Set(
            server.query("SELECT client_id FROM reviews WHERE client_id IS NOT NULL", database: setup.url.postgresDatabaseName)
                .split(separator: "\n").map(String.init))
        let acknowledged = Self.acknowledged(answers)
        #expect(acknowledged.isSubset(of: stored), "lost: \(acknowledged.subtracting(stored).sorted().prefix(10))")
        let after = try await RawHTTP.get(port: a.port, "/healthz").text
        #expect(after.contains("\"state\":\"up\""), "\(after)")
        #expect(try await a.stop(signal: SIGTERM) == 0)
    }
}

/// A flag set once, read from many tasks.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}

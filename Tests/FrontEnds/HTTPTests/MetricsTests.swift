import Foundation
import TestSupport
import Testing

/// `vocab serve --metrics-port` as an operator scrapes it: the real process, read by the
/// Prometheus text parser of PyPI's prometheus-client (installed by `scripts/install-deps test`).
@Suite("GET /metrics on its own port, parsed by prometheus-client", .serialized)
struct MetricsTests {
    static let parser = Repository.root + "/.build-tools/prometheus"

    /// The families and samples the parser reads, as JSON: {family: [[labels, value, sample name]]}.
    static func parse(_ text: String) throws -> [String: [[Any]]] {
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = {}
            for family in text_string_to_metric_families(sys.stdin.read()):
                out[family.name] = [[s.labels, s.value, s.name] for s in family.samples]
            print(json.dumps(out))
            """
        let run = try runProcess("/usr/bin/python3", ["-c", script], environment: ["PYTHONPATH": parser], input: text)
        try #require(run.status == 0, "prometheus-client could not parse /metrics (run scripts/install-deps test): \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [[Any]]])
    }

    /// The metrics port `server` logged.
    static func metricsPort(of server: ServeProcess) async throws -> Int {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let range = server.stderr.range(of: "metrics=http://127.0.0.1:") {
                if let port = Int(server.stderr[range.upperBound...].prefix { $0.isNumber }) { return port }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw MetricsMissing(log: server.stderr)
    }

    struct MetricsMissing: Error { let log: String }

    typealias Sample = (labels: [String: String], value: Double, name: String)

    /// The samples of one family of a parsed scrape.
    static func samples(_ families: [String: [[Any]]], _ family: String) -> [Sample] {
        (families[family] ?? []).map { ($0[0] as? [String: String] ?? [:], ($0[1] as? NSNumber)?.doubleValue ?? -1, $0[2] as? String ?? "") }
    }

    /// How many waits a pool's histogram counted.
    static func waits(_ families: [String: [[Any]]], pool: String) -> Double? {
        samples(families, "vocab_pool_wait_seconds").first { $0.labels["pool"] == pool && $0.name.hasSuffix("_count") }?.value
    }

    @Test(
        "off by default; with --metrics-port, requests by route template, method and status with latency histograms, answers from memory, clips by tier, open connections, refused sign-ins, the database's and the speech engines' pools (in use, waiting, waits) and commit times"
    )
    func scrape() async throws {
        let dir = try TemporaryDirectory("vocab-metrics")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let env = ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
        let added = try runProcess(Repository.vocabExecutable, ["users", "add", "anna", "--json"], environment: env)
        let token = try #require((try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["token"] as? String)
        let off = try await ServeProcess.start(environment: env)
        #expect(!off.stderr.contains("/metrics"))
        #expect(try await RawHTTP.get(port: off.port, "/metrics").status == 404, "not on the API's port")
        #expect(try await off.stop(signal: SIGTERM) == 0)

        let server = try await ServeProcess.start(environment: env, arguments: ["--metrics-port", "0"])
        let port = try await Self.metricsPort(of: server)
        for _ in 0..<3 { _ = try await RawHTTP.get(port: server.port, "/v1/categories") }
        _ = try await RawHTTP.get(port: server.port, "/v1/words/cat")
        _ = try await RawHTTP.get(port: server.port, "/v1/words/zebra")
        _ = try await RawHTTP.get(port: server.port, "/v1/audio/cat")
        #expect(try await RawHTTP.get(port: server.port, "/v1/audio/fish").status == 200, "no clip on disk: spoken")
        _ = try await RawHTTP.get(port: server.port, "/v1/me", headers: ["Authorization": "Bearer vocab_wrong"])
        let saved = try await RawHTTP.get(
            port: server.port, "/v1/me/library", method: "POST",
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: Array(#"{"word":"cat"}"#.utf8))
        #expect(saved.status == 201)
        let scraped = try await RawHTTP.get(port: port, "/metrics")
        #expect(scraped.status == 200 && scraped.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(try await server.stop(signal: SIGTERM) == 0)

        let families = try Self.parse(scraped.text)
        func samples(_ family: String) -> [Sample] { Self.samples(families, family) }
        func requests(_ route: String, _ status: String) -> Double {
            samples("vocab_http_requests").first { $0.labels["route"] == route && $0.labels["status"] == status && $0.labels["method"] == "GET" }?.value ?? 0
        }
        #expect(requests("/v1/categories", "200") == 3, "\(samples("vocab_http_requests"))")
        #expect(requests("/v1/words/{word}", "200") == 1 && requests("/v1/words/{word}", "404") == 1, "route templates, not paths")
        #expect(requests("/v1/me", "401") == 1)
        let fromMemory = samples("vocab_http_answers_from_memory").first { $0.labels["route"] == "/v1/categories" }?.value ?? 0
        #expect(fromMemory == 2, "the second and third came from memory")
        let histogram = samples("vocab_http_request_duration_seconds").filter { $0.labels["route"] == "/v1/categories" }
        #expect(histogram.contains { $0.name.hasSuffix("_count") && $0.value == 3 } && histogram.contains { $0.labels["le"] == "+Inf" })
        #expect(samples("vocab_clips_served").contains { $0.labels["tier"] == "recorded" && $0.value == 1 }, "\(samples("vocab_clips_served"))")
        #expect(samples("vocab_sign_in_refusals").first?.value == 1)
        #expect(samples("vocab_http_connections_open").first != nil)

        // Scraped with nothing running: every pool idle, each counted what it served.
        let pools = Set(samples("vocab_pool_in_use").compactMap { $0.labels["pool"] })
        #expect(pools.isSuperset(of: ["learners.reads", "learners.writes", "speech.espeak"]), "\(pools)")
        #expect(!pools.contains("postgres"))
        #expect(samples("vocab_pool_in_use").allSatisfy { $0.value == 0 } && samples("vocab_pool_waiting").allSatisfy { $0.value == 0 })
        #expect((Self.waits(families, pool: "learners.writes") ?? 0) >= 1, "the saved word")
        #expect((Self.waits(families, pool: "learners.reads") ?? 0) >= 1, "the token's learner")
        let spoken = (Self.waits(families, pool: "speech.espeak") ?? 0) + (Self.waits(families, pool: "speech.neural") ?? 0)
        #expect(spoken >= 1, "fish was spoken by one of the voices: \(samples("vocab_pool_wait_seconds").filter { $0.name.hasSuffix("_count") })")
        let commits = samples("vocab_db_commit_seconds")
        #expect(commits.contains { $0.name.hasSuffix("_count") && $0.value >= 1 } && commits.contains { $0.labels["le"] == "+Inf" })
    }
}

/// deploy/vocab.service runs the command line it names: the same options, read from the file,
/// start a server that answers and stops on SIGTERM as systemd stops it.
@Suite("The systemd unit's command line")
struct SystemdUnitTests {
    @Test("ExecStart of deploy/vocab.service starts a server (ports set to free ones) that answers, logs JSON, exposes metrics and stops cleanly on SIGTERM")
    func execStartRuns() async throws {
        let unit = try String(contentsOfFile: Repository.root + "/deploy/vocab.service", encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        var args = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(args.first == "/usr/local/bin/vocab" && args.dropFirst().first == "serve")
        args = Array(args.dropFirst(2))
        // ServeProcess gives --host and --port itself; a free metrics port replaces the fixed one.
        for option in ["--host", "--port"] {
            if let i = args.firstIndex(of: option) { args.removeSubrange(i...(i + 1)) }
        }
        let metrics = try #require(args.firstIndex(of: "--metrics-port"))
        args[metrics + 1] = "0"
        #expect(unit.contains("KillSignal=SIGTERM") && unit.contains("User=vocab") && unit.contains("StateDirectory=vocab"))
        // systemd's own check of the unit, with ExecStart pointing at this build (the installed path does not exist here).
        let copy = try TemporaryDirectory("vocab-unit-file")
        defer { copy.remove() }
        try unit.replacingOccurrences(of: "/usr/local/bin/vocab", with: Repository.vocabExecutable)
            .write(toFile: copy.file("vocab.service"), atomically: true, encoding: .utf8)
        let verify = try runProcess("/usr/bin/systemd-analyze", ["verify", copy.file("vocab.service")])
        #expect(verify.status == 0, "systemd-analyze verify (install-deps test installs systemd): \(verify.stderr)")
        let dir = try TemporaryDirectory("vocab-unit")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let server = try await ServeProcess.start(
            environment: [
                "VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"),
                "VOCAB_AUDIO": dir.file("Audio"),
            ], arguments: args)
        #expect(try await RawHTTP.get(port: server.port, "/healthz").status == 200)
        #expect(server.stderr.contains(#""msg":"metrics""#), "JSON lines with the metrics listener: \(server.stderr.prefix(400))")
        #expect(try await server.stop(signal: SIGTERM) == 0)
    }
}

import App
import AppCore
import ArgumentParser
import CLICore
import Foundation
import HTTPAPI
import HTTPTransport

extension ServerSettings.LogLevel: ExpressibleByArgument {}
extension ServerSettings.LogFormat: ExpressibleByArgument {}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog, audio and dictionary as a JSON HTTP API, and the web app at /.",
        discussion: """
            The backend an app can use instead of a hosted document database. All endpoints \
            are GET (and HEAD), JSON except audio; openapi.json in the repository describes them:
              /healthz
              /v1/categories?level=
              /v1/categories/{id}/words?level=&limit=&offset=
              /v1/words?pos=&level=&limit=&offset=
              /v1/words/{word}
              /v1/search?q=&source=&limit=&offset=
              /v1/audio/{word}?accent=british|american&format=wav|ogg|flac
              /v1/moe/{title}, /v1/moe/strokes/{n}   (after 'vocab import moe')
            A learner's own data is under /v1/me (API token, or the web app's session after \
            'vocab users passwd NAME'). The web app is at / (open http://127.0.0.1:8080/).
            Catalog answers carry an ETag (If-None-Match gives 304) and are gzipped for clients \
            that accept it. A clip is rendered once, kept in <home>/clips (where 'vocab say' \
            keeps its clips too), and its tier named in the X-Vocab-Tier header. Bad input gets \
            a JSON error with a 4xx status. A client gets 10 s to send a request head, 30 s for \
            a body and 30 s between requests; past --max-connections new connections get 503. \
            A connection is closed after a 400, and after answering HTTP/1.0 without keep-alive \
            or Connection: close (2 s at most for the client to close its side). \
            One log line per request goes to standard error. SIGTERM or Ctrl-C stops the \
            server once the requests in flight are answered. Say it recordings \
            (POST /v1/me/attempts) are not kept unless VOCAB_KEEP_RECORDINGS names a folder.

            Examples:
              vocab serve
              vocab serve --port 9000 --log-level warning
              vocab serve --host 0.0.0.0 --port 8080
              vocab serve --database postgres://vocab@127.0.0.1:5432/vocab   (several instances, one database)
              curl -s 'http://127.0.0.1:8080/v1/words/cat'
            """)

    @Option(name: .long, help: "Address to listen on (use 0.0.0.0 to accept other machines).")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "Port to listen on (0 picks a free one, shown in the log).")
    var port = 8080

    @Option(name: .long, help: "Log level: trace, debug, info (one line per request), notice, warning, error, critical.")
    var logLevel: ServerSettings.LogLevel = .info

    @Option(name: .long, help: "Log lines as text (logfmt) or json (one object a line); each request's lines carry its X-Request-Id.")
    var logFormat: ServerSettings.LogFormat = .text

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Answer GET /metrics (Prometheus text) on this port of --host; off unless given (0 picks a free port, shown in the log).",
            valueName: "port"))
    var metricsPort: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy (its IP address) whose X-Forwarded-For names the client; repeat for several.",
            discussion: "Sign-in limits then count the client's address, not the proxy's. From any other address the header is ignored.",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Open connections at most; more are answered 503 at once (16-100000).")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database for the catalog and the learners, shared by several instances.",
            discussion:
                "Default: $VOCAB_DATABASE_URL, else \"databaseURL\" in config.json, else the embedded SQLite files. Load the catalog first with 'vocab db push'.",
            valueName: "postgres://user@host:port/name"))
    var database: String?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(port, name: "--port", range: 0...65_535) }
        if let metricsPort { _ = try checked { () throws(Failure) in try InputRules.bounded(metricsPort, name: "--metrics-port", range: 0...65_535) } }
        guard !host.isEmpty else { throw ValidationError("--host cannot be empty.") }
        for proxy in trustedProxies where !InputRules.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy takes an IP address like 10.0.0.2 or ::1, not '\(proxy)'.")
        }
        _ = try checked { () throws(Failure) in try InputRules.bounded(maxConnections, name: "--max-connections", range: 16...100_000) }
    }

    func run() async throws {
        // Every connection is a file descriptor: allow as many as the system lets this process
        // have, so the connection limit, not the descriptor limit, is what clients meet.
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        var connections = ConnectionLimits()
        connections.maxConnections = maxConnections
        let settings = ServerSettings(
            host: host, port: port, logLevel: logLevel.level, version: Vocab.configuration.version,
            connections: connections, logFormat: logFormat, metricsPort: metricsPort, trustedProxies: trustedProxies)
        let environment = options.environment
        let choice = try VocabApp.databaseChoice(flag: database, environment: environment)
        // The log is written by a thread of its own, so that no answer waits on standard error.
        let log = BatchedLog(json: logFormat == .json)
        defer { log.finish() }
        let server = try await VocabServer.make(environment: environment, settings: settings, database: choice, logSink: log.sink)
        try await server.run()
    }
}

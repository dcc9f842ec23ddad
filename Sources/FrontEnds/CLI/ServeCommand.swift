import CLICore
import ArgumentParser
import Audio
import Cache
import Catalog
import Foundation
import HTTPFetch
import Speech
import HTTPAPI

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog, audio and dictionary as a JSON HTTP API.",
        discussion: """
            The backend an app can use instead of a hosted document database. All endpoints \
            are GET (and HEAD), JSON except audio; openapi.json in the repository describes them:
              /healthz
              /v1/categories?level=
              /v1/categories/{id}/words?level=&limit=&offset=
              /v1/words/{word}
              /v1/search?q=&limit=
              /v1/audio/{word}?accent=british|american&format=wav|ogg
              /v1/moe/{title}, /v1/moe/strokes/{n}   (after 'vocab import moe')
            Catalog answers carry an ETag (If-None-Match gives 304) and are gzipped for clients \
            that accept it. A clip is rendered once, kept under <home>/server-audio, and its \
            tier named in the X-Vocab-Tier header. Bad input gets a JSON error with a 4xx status. \
            One log line per request goes to standard error. SIGTERM or Ctrl-C stops the \
            server once the requests in flight are answered.

            Examples:
              vocab serve
              vocab serve --port 9000 --log-level warning
              vocab serve --host 0.0.0.0 --port 8080
              curl -s 'http://127.0.0.1:8080/v1/words/cat'
            """)

    @Option(name: .long, help: "Address to listen on (use 0.0.0.0 to accept other machines).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free one, shown in the log).")
    var port = 8080

    @Option(name: .long, help: "Log level: trace, debug, info (one line per request), notice, warning, error.")
    var logLevel = "info"

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard !host.isEmpty else { throw ValidationError("--host cannot be empty.") }
        guard ServerSettings.isLogLevel(logLevel) else {
            throw ValidationError("--log-level must be one of \(ServerSettings.logLevelNames.joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let env = options.environment
        try FileManager.default.createDirectory(atPath: env.home, withIntermediateDirectories: true)
        // A long-running process keeps query results in memory, not in the CLI's cache file.
        let indexer = CatalogIndexer(source: CatalogSource(directory: env.categoriesDirectory), databasePath: env.catalogDatabase)
        let (store, status) = try await indexer.open()
        if case .rebuilt(let reason, let categories, let words) = status {
            Output.error("vocab: indexed \(words) words in \(categories) categories (\(reason)).")
        }
        let catalog = CatalogService(store: store, cache: QueryCache(storage: MemoryCacheStorage()))

        var settings = ServerSettings(home: env.home, host: host, port: port, version: Vocab.configuration.version)
        _ = settings.setLogLevel(named: logLevel)
        let server = VocabServer(catalog: catalog, pronouncer: pronouncer(env), settings: settings)
        try await server.run()
    }

    /// The three tiers, created once for the process (espeak-ng keeps global state). Without
    /// libespeak-ng the server still serves recorded and legacy clips.
    func pronouncer(_ env: VocabEnvironment) -> Pronouncer {
        do {
            return try AudioSetup(environment: env).pronouncer()
        } catch {
            Output.error("vocab: speech synthesis is unavailable (\(error)); serving recorded and legacy clips only.")
            return Pronouncer(sources: [
                RecordedClipSource(audioRoot: env.audioDirectory, cacheDirectory: env.clipCacheDirectory, http: CurlHTTPClient()),
                LegacyClipSource(audioRoot: env.audioDirectory),
            ])
        }
    }
}

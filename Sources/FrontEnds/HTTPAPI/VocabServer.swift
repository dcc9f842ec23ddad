import Audio
import Catalog
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Where and how `vocab serve` listens, and where it keeps what it renders.
public struct ServerSettings: Sendable {
    public var host: String
    /// 0 picks a free port (reported through `onRunning` and the log).
    public var port: Int
    /// Rendered clips, `<vocab home>/server-audio`.
    public var audioCacheDirectory: String
    /// The imported MOE dictionary, `<vocab home>/moe.sqlite`.
    public var moeDatabase: String
    public var logLevel: Logger.Level
    public var version: String

    public init(host: String = "127.0.0.1", port: Int = 8080, audioCacheDirectory: String, moeDatabase: String,
                logLevel: Logger.Level = .info, version: String = "0.1.0") {
        self.host = host
        self.port = port
        self.audioCacheDirectory = audioCacheDirectory
        self.moeDatabase = moeDatabase
        self.logLevel = logLevel
        self.version = version
    }

    /// Settings for a vocab home folder: clips under `server-audio`, the dictionary at `moe.sqlite`.
    public init(home: String, host: String = "127.0.0.1", port: Int = 8080, logLevel: Logger.Level = .info, version: String = "0.1.0") {
        self.init(host: host, port: port, audioCacheDirectory: home + "/server-audio", moeDatabase: home + "/moe.sqlite",
                  logLevel: logLevel, version: version)
    }
}

/// The HTTP service: the catalog as JSON under /v1, pronunciations with their tier, the MOE
/// dictionary when imported, and /healthz. Built on Hummingbird 2.
public struct VocabServer: Sendable {
    public let settings: ServerSettings
    let catalog: CatalogService
    let pronouncer: Pronouncer?
    let logger: Logger

    /// - Parameter pronouncer: the three audio tiers; nil serves no audio (503 on /v1/audio).
    public init(catalog: CatalogService, pronouncer: Pronouncer?, settings: ServerSettings,
                logSink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError) {
        self.catalog = catalog
        self.pronouncer = pronouncer
        self.settings = settings
        let level = settings.logLevel
        self.logger = Logger(label: "vocab.http") { LogfmtLogHandler(label: $0, level: level, sink: logSink) }
    }

    var requestLog: RequestLog<BasicRequestContext> { RequestLog(logger: logger) }

    /// Every route the server answers, as "GET /v1/words/{word}" (HEAD is answered for each GET).
    public func routeList() async throws -> [String] {
        try await router().routes.filter { $0.method == .get }.map { "GET \($0.path)" }.sorted()
    }

    func router(cache: ResponseCache = ResponseCache()) async throws -> Router<BasicRequestContext> {
        let endpoints = CatalogEndpoints(catalog: catalog, cache: cache)
        let audio = AudioEndpoint(store: AudioClipStore(directory: settings.audioCacheDirectory, catalog: catalog, pronouncer: pronouncer),
                                  cache: cache)
        let moe = MOEEndpoints(databasePath: settings.moeDatabase, cache: cache)
        let health = try await healthCheck()

        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: requestLog)
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: RepeatedRequests(cache: cache))
        router.add(middleware: RequestGuard())
        router.get("/healthz") { _, _ in try health() }
        router.get("/v1/categories") { request, _ in try await endpoints.categories(request) }
        router.get("/v1/categories/{id}/words") { request, context in try await endpoints.words(request, context: context) }
        router.get("/v1/words/{word}") { request, context in try await endpoints.word(request, context: context) }
        router.get("/v1/search") { request, _ in try await endpoints.search(request) }
        router.get("/v1/audio/{word}") { request, context in try await audio.clip(request, context: context) }
        router.get("/v1/moe/{title}") { request, context in try await moe.entry(request, context: context) }
        router.get("/v1/moe/strokes/{n}") { request, context in try await moe.strokes(request, context: context) }
        return router
    }

    /// /healthz: the catalog's size (fixed while the server runs) and whether the dictionary
    /// and speech are available; never cached.
    private func healthCheck() async throws -> @Sendable () throws -> Representation {
        let categories = try await catalog.summaries().count
        let words = try await catalog.allWords().count
        let version = settings.version, moeDatabase = settings.moeDatabase
        let tts = pronouncer?.sources.contains { $0.tier == .tts } ?? false
        return {
            let body = Health(status: "ok", version: version, catalog: .init(categories: categories, words: words),
                              moe: FileManager.default.fileExists(atPath: moeDatabase), tts: tts)
            return try .json(body, cacheControl: CachePolicy.none)
        }
    }

    /// Runs until SIGTERM or SIGINT (when `handleSignals`) or until the task is cancelled, then
    /// stops accepting connections and lets requests in flight finish.
    /// - Parameter onRunning: called with the bound port once the server listens.
    public func run(handleSignals: Bool = true, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let cache = ResponseCache()
        let router = try await self.router(cache: cache)
        let logger = self.logger
        let host = settings.host
        let requestLog = self.requestLog
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in VocabHTTP1Channel(responder: responder, cache: cache, requestLog: requestLog) },
            configuration: ApplicationConfiguration(address: .hostname(host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("listening", metadata: ["url": "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"])
                await onRunning(port)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [app], gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: logger))
        try await group.run()
        logger.notice("stopped")
    }
}

extension ServerSettings {
    /// The levels `--log-level` accepts, quietest last.
    public static let logLevelNames = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    public static func isLogLevel(_ name: String) -> Bool { Logger.Level(rawValue: name.lowercased()) != nil }

    /// Sets the log level by name; false when the name is not a level.
    public mutating func setLogLevel(named name: String) -> Bool {
        guard let level = Logger.Level(rawValue: name.lowercased()) else { return false }
        logLevel = level
        return true
    }
}

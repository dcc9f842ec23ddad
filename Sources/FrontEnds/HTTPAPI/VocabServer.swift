import App
import AppCore
import Audio
import Catalog
import Foundation
import HTTPTransport
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Where and how `vocab serve` listens.
public struct ServerSettings: Sendable {
    public var host: String
    /// 0 picks a free port (reported through `onRunning` and the log).
    public var port: Int
    public var logLevel: Logger.Level
    public var version: String
    public var connections: ConnectionLimits

    public init(host: String = "127.0.0.1", port: Int = 8080, logLevel: Logger.Level = .info, version: String = "0.1.0",
                connections: ConnectionLimits = ConnectionLimits()) {
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.version = version
        self.connections = connections
    }

    /// The levels `--log-level` accepts, quietest last.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
        public var level: Logger.Level { Logger.Level(rawValue: rawValue)! }
    }
}

/// The HTTP service: the catalog as JSON under /v1, pronunciations with their tier, the MOE
/// dictionary when imported, and /healthz. Built on Hummingbird 2 from the same services as
/// the command line.
public struct VocabServer: Sendable {
    public let settings: ServerSettings
    let services: VocabServices
    let catalog: CatalogService
    let clips: ClipService?
    let speech: Bool
    let learning: LearningService
    let attempts = FailedAttempts()
    let logger: Logger

    /// Opens what the server needs from `services`: the catalog (its answers cached in memory)
    /// and the audio tiers, created once for the process. Notices (a rebuilt or stale catalog,
    /// speech unavailable) go to the log.
    public static func make(services: VocabServices, settings: ServerSettings,
                            logSink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError) async throws -> VocabServer {
        let level = settings.logLevel
        let logger = Logger(label: "vocab.http") { LogfmtLogHandler(label: $0, level: level, sink: logSink) }
        let (catalog, status) = try await services.openCatalog(cache: .memory)
        if let notice = status.notice { logger.notice("catalog", metadata: ["note": "\(notice)"]) }
        let (pronouncer, speechUnavailable) = services.pronouncer()
        if let speechUnavailable {
            logger.warning("speech synthesis is unavailable; serving recorded and legacy clips only", metadata: ["reason": "\(speechUnavailable)"])
        }
        let learning = services.learning(catalog: catalog, store: try services.learnerStore())
        return VocabServer(settings: settings, services: services, catalog: catalog,
                           clips: ClipService(store: services.clipStore, pronouncer: pronouncer), speech: speechUnavailable == nil,
                           learning: learning, logger: logger)
    }

    func requestLog<Context: RequestContext>(_ context: Context.Type = Context.self) -> RequestLog<Context> {
        RequestLog(logger: logger, loggedHeaders: [(AudioRoutes.tierHeader, "tier"), (AudioRoutes.cacheHeader, "cache")])
    }

    /// Every route the server answers, as "GET /v1/words/{word}" (HEAD is answered for each GET).
    public func routeList() async throws -> [String] {
        try await router().routes.map { "\($0.method) \($0.path)" }.filter { !$0.hasPrefix("HEAD ") }.sorted()
    }

    func router(cache: ResponseCache = ResponseCache()) async throws -> Router<VocabRequestContext> {
        let health = try await healthCheck()
        let router = Router(context: VocabRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: requestLog(VocabRequestContext.self))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: RepeatedRequests(cache: cache))
        router.add(middleware: RequestGuard())
        router.get("/healthz") { _, _ in try health() }
        router.addRoutes(CatalogRoutes(catalog: catalog, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(AudioRoutes(catalog: catalog, clips: clips, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(MandarinRoutes(services: services, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(LearnerRoutes(learning: learning, exports: ExportService(clips: clips), attempts: attempts).collection(), atPath: "/v1")
        return router
    }

    /// /healthz: the catalog's size (fixed while the server runs) and whether the dictionary
    /// and speech are available; never cached.
    private func healthCheck() async throws -> @Sendable () throws -> Representation {
        let overview = try await catalog.overview()
        let version = settings.version, services = self.services, tts = speech
        return {
            let body = Health(status: "ok", version: version,
                              catalog: .init(categories: overview.summaries.count, words: overview.wordCount),
                              moe: services.isMandarinImported, tts: tts)
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
        let requestLog = self.requestLog(BasicRequestContext.self)
        let limits = settings.connections
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                VocabHTTP1Channel(responder: responder, cache: cache, requestLog: requestLog, limits: limits)
            },
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

struct Health: Encodable, Sendable {
    struct CatalogInfo: Encodable, Sendable { var categories: Int; var words: Int }
    var status: String
    var version: String
    var catalog: CatalogInfo
    /// Whether the MOE dictionary has been imported (the /v1/moe endpoints answer).
    var moe: Bool
    /// Whether speech synthesis, the audio tier that always works, is available.
    var tts: Bool
}

import App
import AppCore
import Audio
import Catalog
import Foundation
import HTTPTransport
import Hummingbird
import HummingbirdCore
import Logging
import Mandarin
import NIOCore
import Offloading
import PostgresStore
import ServiceLifecycle
import Synchronization
import Usage
import WebApp

/// Where and how `vocab serve` listens.
public struct ServerSettings: Sendable {
    public var host: String
    /// 0 picks a free port (reported through `onRunning` and the log).
    public var port: Int
    public var logLevel: Logger.Level
    public var version: String
    public var connections: ConnectionLimits
    /// How long a repeated audio request may be answered from memory before the clip's sources
    /// are looked at again (seconds): a recording imported, replaced or removed while the server
    /// runs is served after at most this long.
    public var audioFreshness: Double

    /// The port of a second listener answering GET /metrics (Prometheus text); nil: none.
    public var metricsPort: Int?
    /// Readable logfmt lines (the default) or JSON lines for a log collector.
    public var logFormat: LogFormat = .text
    /// Reverse proxies whose `X-Forwarded-For` names the client (`ClientAddresses`); none by default.
    public var trustedProxies: [String] = []

    public enum LogFormat: String, CaseIterable, Sendable { case text, json }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, logLevel: Logger.Level = .info, version: String = "0.1.0",
        connections: ConnectionLimits = ConnectionLimits(), audioFreshness: Double = 1, logFormat: LogFormat = .text,
        metricsPort: Int? = nil, trustedProxies: [String] = []
    ) {
        self.trustedProxies = trustedProxies
        self.logFormat = logFormat
        self.metricsPort = metricsPort
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.version = version
        self.connections = connections
        self.audioFreshness = audioFreshness
    }

    /// The levels `--log-level` accepts, quietest last.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
        public var level: Logger.Level { Logger.Level(rawValue: rawValue)! }
    }
}

/// The HTTP service: the catalog as JSON under /v1, pronunciations with their tier, the MOE
/// dictionary when imported, per-learner data under /v1/me, /healthz, and the web app at /. Built on Hummingbird 2 from the same services as
/// the command line.
public struct VocabServer: Sendable {
    public let settings: ServerSettings
    let catalog: CatalogService
    let clips: ClipService?
    let speech: Bool
    /// The neural voice: "starting" while its processes load (a first word waits for them),
    /// then "ready"; "off" when it is not installed or switched off, "failed" when it could not
    /// start (English is spoken by espeak-ng). /healthz says which, so a deployment can wait.
    let voice: WarmingPart
    /// The listener, as `voice` says the voice: "starting", "ready", "off" or "failed".
    let listenerState: WarmingPart
    let listening: ListeningService
    let exports: ExportService
    let learning: LearningService
    let classes: ClassService
    let search: SearchService
    let attempts: FailedAttempts
    let childAttempts: FailedAttempts
    /// Counted only when the server exposes metrics.
    let metrics: ServerMetrics?
    /// The methods and route templates of the router, filled when it is built.
    let allowed = AllowedMethods()
    let web: WebAssets
    let logger: Logger
    /// The shared database when the server runs on PostgreSQL (nil: the embedded SQLite files).
    let postgres: ServerDatabase?
    /// Finished catalog and dictionary answers; on PostgreSQL emptied whenever either changes anywhere.
    let responses: ResponseCache
    let listener: PostgresChangeListener?
    /// The Mandarin dictionary: moe.sqlite, or on PostgreSQL the one `vocab db push` loaded.
    let dictionary: any MandarinDictionary

    /// The server of the environment on `database`: builds the running system (`VocabApp`) for
    /// a server, its log going to `logSink`, and serves it.
    public static func make(
        environment: VocabEnvironment, settings: ServerSettings, database: DatabaseChoice = .embedded,
        logSink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError
    ) async throws -> VocabServer {
        let logger = Self.logger(settings, logSink: logSink)
        return try await make(app: app(environment: environment, database: database, logger: logger), settings: settings, logger: logger)
    }

    /// The running system as a server uses it: a pool with deadlines on PostgreSQL, answers in
    /// memory, a voice process per core; a rebuilt or stale catalog is noted in the log.
    public static func app(environment: VocabEnvironment, database: DatabaseChoice, logger: Logger) throws -> VocabApp {
        try VocabApp(
            environment: environment, database: database, use: .server, logger: logger,
            onCatalog: { status in if let notice = status.notice { logger.notice("catalog", metadata: ["note": "\(notice)"]) } },
            onDiskFull: { logger.warning("\($0)") })
    }

    public static func logger(_ settings: ServerSettings, logSink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError) -> Logger {
        let level = settings.logLevel
        switch settings.logFormat {
        case .text: return Logger(label: "vocab.http") { LogfmtLogHandler(label: $0, level: level, sink: logSink) }
        case .json: return Logger(label: "vocab.http") { JSONLogHandler(label: $0, level: level, sink: logSink) }
        }
    }

    /// Serves the running system `app` and adds only what a server has: answers kept in memory
    /// (on PostgreSQL emptied by the change channel), the voice's processes started early, the
    /// web app. Notices (a rebuilt or stale catalog, speech unavailable) go to the log. On
    /// PostgreSQL nothing is read here: the pool runs only once `run()` starts the services.
    public static func make(app: VocabApp, settings: ServerSettings, logger: Logger) async throws -> VocabServer {
        let responses = ResponseCache()
        await PasswordRules.prepare()
        // Made now, so that no request waits for the index or the learners' file.
        let catalog = try await app.catalog()
        let learning = try await app.learning()
        let classes = try await app.classes()
        // Another instance changed the catalog or pushed a dictionary, or this one may have
        // missed notifications: the answers kept in memory may be stale.
        let listener = app.postgres.map { server in
            PostgresChangeListener(
                database: server.database,
                onChange: { payload in
                    if payload == "documents:" + ServerDatabase.catalogSpace || payload == ServerDatabase.mandarinChange { responses.removeAll() }
                }, onConnect: { responses.removeAll() })
        }
        // The neural voice's and the listener's processes load in the background: a request that
        // comes first waits for its process in the worker's own queue, never on an event loop.
        let audio = app.audio
        let listening = try await app.listening()
        let voice = WarmingPart.warming(
            available: audio.neuralSynthesizer(), logger: logger, name: "the neural voice", without: "English is spoken by espeak-ng"
        ) { await audio.warmUpNeuralVoice() }
        let listenerState = WarmingPart.warming(
            available: audio.listener(), logger: logger, name: "the listener", without: "attempts at saying words are refused"
        ) { await listening.warmUp() }
        let (clips, speechUnavailable) = audio.clips()
        if let speechUnavailable {
            logger.warning("speech synthesis is unavailable; serving recorded and legacy clips only", metadata: ["reason": "\(speechUnavailable)"])
        }
        let databaseUse = try await app.databaseUse()
        let metrics =
            settings.metricsPort == nil
            ? nil : ServerMetrics(pools: databaseUse.pools + audio.speechPools, commitTimes: databaseUse.commitTimes)
        let addresses = ClientAddresses(trustedProxies: settings.trustedProxies)
        let clock = app.environment.clock.now
        return VocabServer(
            settings: settings, catalog: catalog, clips: clips, speech: speechUnavailable == nil, voice: voice,
            listenerState: listenerState, listening: listening,
            exports: ExportService(clips: clips, pictures: app.environment.picturesDirectory), learning: learning, classes: classes,
            search: try await app.search(),
            attempts: FailedAttempts(.adults, addresses: addresses, metrics: metrics, now: clock),
            childAttempts: FailedAttempts(.children, addresses: addresses, metrics: metrics, now: clock), metrics: metrics,
            web: try await WebAssets.load().adding(
                try await WebAssets.pictures(
                    from: app.environment.picturesDirectory, sets: CatalogValidator.pictureSets, limit: PictureLibrary.sizeLimit)
            ).adding(try await WebAssets.letters(from: app.environment.audioDirectory + "/letters")),
            logger: logger,
            postgres: app.postgres, responses: responses, listener: listener, dictionary: app.dictionary)
    }

    func requestLog<Context: RequestContext>(_ context: Context.Type = Context.self) -> RequestLog<Context> {
        RequestLog(
            logger: logger, loggedHeaders: [(AudioRoutes.tierHeader, "tier"), (AudioRoutes.cacheHeader, "cache")], metrics: metrics,
            route: { [allowed] in allowed.template(for: $0) })
    }

    /// Every route the server answers, as "GET /v1/words/{word}" (HEAD is answered for each GET).
    public func routeList() async throws -> [String] {
        try await router(cache: responses).routes.map { "\($0.method) \($0.path)" }.filter { !$0.hasPrefix("HEAD ") }.sorted()
    }

    func router(cache: ResponseCache) async throws -> Router<VocabRequestContext> {
        let health = try await healthCheck()
        let router = Router(context: VocabRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: requestLog(VocabRequestContext.self))
        router.add(middleware: ErrorMiddleware())
        router.add(
            middleware: RepeatedRequests(
                cache: cache,
                onHit: { [metrics, allowed] path in
                    if let metrics { metrics.answeredFromMemory(route: metrics.route(of: path, allowed.template(for:))) }
                }))
        router.add(middleware: RequestGuard(allowed: allowed))
        router.add(middleware: WebAppMiddleware(assets: web, cache: cache))
        router.get("/healthz") { _, _ in try await health() }
        router.addRoutes(CatalogRoutes(catalog: catalog, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(
            AudioRoutes(
                catalog: catalog, dictionary: dictionary, clips: clips, cache: cache,
                freshness: UInt64(max(0, settings.audioFreshness) * 1e9)
            ).collection(), atPath: "/v1")
        router.addRoutes(MandarinRoutes(dictionary: dictionary, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(SearchRoutes(search: search, learning: learning, attempts: attempts, cache: cache).collection(), atPath: "/v1")
        router.addRoutes(SessionRoutes(learning: learning, classes: classes, attempts: attempts).collection(), atPath: "/v1")
        let classRoutes = ClassRoutes(classes: classes, learning: learning, attempts: attempts, childAttempts: childAttempts)
        router.addRoutes(classRoutes.publicCollection(), atPath: "/v1")
        router.addRoutes(classRoutes.collection(), atPath: "/v1")
        router.addRoutes(
            LearnerRoutes(learning: learning, classes: classes, exports: exports, attempts: attempts, listening: listening).collection(),
            atPath: "/v1")
        allowed.load(router.routes.map { ($0.path.description, $0.method) })
        return router
    }

    /// /healthz: the catalog's size (as the server started) and whether the dictionary, speech
    /// and the database are available; never cached. A PostgreSQL that cannot be reached makes
    /// the status "degraded" (cached catalog answers still work); the answer is still 200, since
    /// the process itself is fine and recovers by itself.
    /// How long /healthz waits for the database before it says it is unavailable.
    static let healthDeadline = 1.0

    private func healthCheck() async throws -> @Sendable () async throws -> Representation {
        let overview = try await catalog.overview()
        let version = settings.version
        let dictionary = self.dictionary
        let tts = speech
        let voice = self.voice
        let listening = self.listenerState
        let listener = self.listener
        let postgres = self.postgres
        let learning = self.learning
        let clips = self.clips
        let lastMOE = LastKnown()
        return {
            // Health has a deadline of its own: a database that does not answer within a second is
            // reported unavailable (a frozen server keeps its connections open and answers nothing).
            let deadline = Self.healthDeadline
            let database: Health.DatabaseInfo
            if let listener, let postgres {
                let answers =
                    (try? await withDeadline(seconds: deadline) {
                        try await postgres.database.checkReachable()
                        return true
                    }) ?? false
                database = .init(engine: "postgresql", state: listener.isConnected && answers ? "up" : "unavailable")
            } else {
                // Reads go on when the disk is full; writes are refused (503) until one succeeds again.
                database = .init(engine: "sqlite", state: learning.store.outOfSpace ? "full" : "up")
            }
            // A database that cannot be reached has not lost its dictionary: say what it had.
            let moe: Bool
            if database.state != "unavailable", let answer = try? await withDeadline(seconds: deadline, { await dictionary.isAvailable() }) {
                moe = answer
                lastMOE.value.withLock { $0 = answer }
            } else {
                moe = lastMOE.value.withLock { $0 }
            }
            let reason: String? =
                switch database.state {
                case "up":
                    clips?.outOfSpace == true ? "the disk is full: a new clip could not be stored; clips made before are played." : nil
                case "full": "the disk is full: the last write could not be stored; reads are answered."
                default: "the database cannot be reached."
                }
            let body = Health(
                status: reason == nil ? "ok" : "degraded", reason: reason, version: version,
                catalog: .init(categories: overview.summaries.count, words: overview.wordCount),
                moe: moe, tts: tts, voice: voice.value.withLock { $0 }, listener: listening.value.withLock { $0 }, database: database)
            return try .json(body, cacheControl: CachePolicy.none)
        }
    }

    /// How far a part that loads in the background has come (see `voice` and `listenerState`).
    final class WarmingPart: Sendable {
        let value: Mutex<String>
        init(_ state: String) { value = Mutex(state) }

        /// "starting" while `warm` runs in the background, then "ready" or "failed" (logged);
        /// "off" (logged as info) when the part is not there at all.
        static func warming<Part>(
            available: (Part?, reason: String?), logger: Logger, name: String, without: String,
            _ warm: @escaping @Sendable () async -> String?
        ) -> WarmingPart {
            guard available.0 != nil else {
                if let reason = available.reason { logger.info("no \(name.dropFirst(4)); \(without)", metadata: ["reason": "\(reason)"]) }
                return WarmingPart("off")
            }
            let state = WarmingPart("starting")
            Task {
                if let failure = await warm() {
                    state.value.withLock { $0 = "failed" }
                    logger.warning("\(name) did not start; \(without)", metadata: ["reason": "\(failure)"])
                } else {
                    state.value.withLock { $0 = "ready" }
                }
            }
            return state
        }
    }

    /// What /healthz last found about the dictionary, for when it cannot look.
    private final class LastKnown: Sendable {
        let value = Mutex(false)
    }

    /// Runs until SIGTERM or SIGINT (when `handleSignals`) or until the task is cancelled, then
    /// stops accepting connections and lets requests in flight finish.
    /// - Parameter onRunning: called with the bound port once the server listens.
    public func run(handleSignals: Bool = true, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let logger = self.logger
        // On PostgreSQL the pool and the change listener run beside the HTTP server, which
        // starts once the schema is up to date; graceful shutdown stops them in reverse order,
        // the HTTP server first.
        var services: [any Service] = []
        if let postgres, let listener { services += [postgres.database.client, listener] }
        if let metrics = metricsListener() { services.append(metrics) }
        services.append(StartingService { try await self.serve(onRunning: onRunning) })
        let group = ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: logger))
        try await group.run()
        logger.notice("stopped")
    }

    /// GET /metrics on a port of its own, so that what the server counts is not public on the
    /// API's port (bind it to an address only the collector reaches).
    private func metricsListener() -> (any Service)? {
        guard let metrics, let port = settings.metricsPort else { return nil }
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text())))
        }
        let logger = self.logger
        let host = settings.host
        return Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? 0)/metrics"
                logger.notice("metrics", metadata: ["metrics": "\(url)"])
            }, logger: logger)
    }

    private func serve(onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        if let postgres {
            let applied = try await postgres.migrate()
            for step in applied { logger.notice("schema", metadata: ["applied": "\(step)"]) }
            guard try await postgres.hasCatalog() else {
                throw Failure(.noCatalog, "\(postgres.database.displayURL) has no catalog yet: load it with 'vocab db push --database URL'.")
            }
        }
        let cache = responses
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
        try await app.run()
    }
}

struct Health: Encodable, Sendable {
    struct CatalogInfo: Encodable, Sendable {
        var categories: Int
        var words: Int
    }
    var status: String
    /// Why the status is "degraded"; absent when it is "ok".
    var reason: String?
    var version: String
    var catalog: CatalogInfo
    /// Whether the MOE dictionary has been imported (the /v1/moe endpoints answer).
    var moe: Bool
    /// Whether speech synthesis, the audio tier that always works, is available.
    var tts: Bool
    /// The neural voice: starting, ready, off or failed.
    var voice: String
    /// The listener (learners' attempts at saying words): starting, ready, off or failed.
    var listener: String
    struct DatabaseInfo: Encodable, Sendable {
        var engine: String
        var state: String
    }
    /// Where learners and (on PostgreSQL) the catalog live, and whether it answers.
    var database: DatabaseInfo
}

/// A service whose work starts once the services before it run (the HTTP server after the
/// database pool it needs to start).
struct StartingService: Service {
    let body: @Sendable () async throws -> Void
    func run() async throws { try await body() }
}

import AppCore
import Cache
import Catalog
import Classes
import Definitions
import FileAccess
import Foundation
import HTTPFetch
import Learners
import Logging
import Mandarin
import PostgresStore
import Store
import Synchronization
import Usage

/// The running system, built by one initializer from its environment and the engine one rule
/// chose (`DatabaseChoice`: the flag, then $VOCAB_DATABASE_URL, then config.json, else the
/// embedded SQLite files): the catalog, audio, the Mandarin dictionary, learning, classes and
/// search. `vocab serve` takes it and only adds routes; every command builds one; tests build
/// it the same way. Building reads nothing: each part is made on first use and then shared, so
/// a command pays only for what it touches (`vocab moe` never indexes the catalog, `vocab say`
/// never opens the learners' file) and a server makes its parts before it listens.
public final class VocabApp: Sendable {
    /// Who uses it: a command (a few connections, its catalog answers cached in a file, one voice
    /// process) or the server (a pool for many requests with a deadline, answers cached in memory,
    /// a voice process per core).
    public enum Use: Sendable { case command, server }

    public let environment: VocabEnvironment
    public let database: DatabaseChoice
    public let use: Use
    public let audio: AudioParts
    /// Where Say it recordings are kept; nil (the default): none is.
    public let recordings: RecordingArchive?
    /// The shared database when the rule chose PostgreSQL. Its pool runs inside `run` (a
    /// command) or in the server's service group.
    public let postgres: ServerDatabase?
    /// moe.sqlite, or the database's copy that `vocab db push` loaded.
    public let dictionary: any MandarinDictionary
    private let onCatalog: @Sendable (CatalogIndexer.Status) -> Void
    private let onDiskFull: @Sendable (String) -> Void
    private let catalogPart = Once<CatalogService>()
    private let learnerPart = Once<LearnerPart>()
    private let listeningPart = Once<ListeningService>()
    private let documentsPart = Mutex<SQLiteDocumentStore?>(nil)

    private struct LearnerPart: Sendable {
        let learning: LearningService
        let classes: ClassService
        let use: (pools: [PoolUse], commitTimes: DurationCounts?)
    }

    /// - Parameters:
    ///   - onCatalog: told how the category files were found when the catalog is first opened
    ///     from them (rebuilt, stale or up to date).
    ///   - onDiskFull: told once if the catalog's answer cache finds the disk full.
    public init(
        environment: VocabEnvironment, database: DatabaseChoice, use: Use, logger: Logger = PostgresPool.silentLogger,
        onCatalog: @escaping @Sendable (CatalogIndexer.Status) -> Void = { _ in },
        onDiskFull: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.environment = environment
        self.database = database
        self.use = use
        self.onCatalog = onCatalog
        self.onDiskFull = onDiskFull
        audio = AudioParts(environment: environment, voiceProcesses: use == .server ? AudioParts.serverVoiceProcesses : 1)
        recordings = environment.keptRecordings.map(RecordingArchive.init)
        switch database {
        case .embedded:
            postgres = nil
            dictionary = SQLiteMandarinDictionary(path: environment.home.moeDatabase)
        case .postgres(let url, _):
            // A server gives up on statements that cannot get a connection and finish within 5 s
            // (HTTP 503); a command has a few connections and waits.
            let server =
                use == .server
                ? try ServerDatabase(url: url, maximumConnections: 20, deadline: .seconds(5), logger: logger)
                : try ServerDatabase(url: url, maximumConnections: 4)
            postgres = server
            dictionary = server.mandarin
        }
    }

    /// The database the rule chooses for this environment, `flag` first.
    public static func databaseChoice(flag: String?, environment: VocabEnvironment) throws -> DatabaseChoice {
        try DatabaseChoice.resolve(flag: flag, config: try config(of: environment))
    }

    // MARK: Catalog

    /// The catalog: on the embedded engine the category files' index (rebuilt first if they
    /// changed), on PostgreSQL what `vocab db push` loaded; its answers cached in a file for a
    /// command, in memory for a server.
    public func catalog() async throws -> CatalogService {
        try await catalogPart.value { [self] in
            if let postgres { return CatalogService(store: postgres.catalog, cache: QueryCache(storage: MemoryCacheStorage())) }
            let (catalog, status) = try await environment.openCatalog(cache: use == .server ? .memory : .file, onOutOfSpace: onDiskFull)
            onCatalog(status)
            return catalog
        }
    }

    /// The category files indexed again from scratch (`vocab index`), whatever their state, as the
    /// app's catalog: called before anything else opened it (it is made once), later `catalog()`
    /// calls answer from the new index.
    public func reindexCatalog() async throws -> CatalogService {
        try await catalogPart.value { [self] in
            let (catalog, status) = try await environment.openCatalog(force: true, cache: .file, onOutOfSpace: onDiskFull)
            onCatalog(status)
            return catalog
        }
    }

    /// The indexed category files themselves (rebuilt first if they changed), for copying into
    /// a shared database.
    public func catalogFiles() async throws -> (store: SQLiteDocumentStore, status: CatalogIndexer.Status) {
        try DurableFile.createDirectory(environment.home.root)
        return try await CatalogIndexer(source: CatalogSource(directory: environment.categoriesDirectory), databasePath: environment.home.catalogDatabase)
            .open()
    }

    // MARK: Learning

    public func learning() async throws -> LearningService { try await learners().learning }

    /// Classes, children and assignments, kept as documents beside the learners.
    public func classes() async throws -> ClassService { try await learners().classes }

    /// Learners' attempts at saying words. The listener's processes start on the first attempt
    /// (or `listening().warmUp()`); learners' data is opened only when an attempt is reviewed.
    public func listening() async throws -> ListeningService {
        try await listeningPart.value { [self] in
            ListeningService(
                catalog: try await catalog(), listener: { [audio] in audio.listener() },
                learning: { [self] in try await learning() }, archive: recordings)
        }
    }

    public func search() async throws -> SearchService { SearchService(catalog: try await catalog(), dictionary: dictionary) }

    /// The learners' database as an operator watches it: its connections or queues in use and
    /// waited for, and on SQLite how long each commit took to be on disk.
    public func databaseUse() async throws -> (pools: [PoolUse], commitTimes: DurationCounts?) { try await learners().use }

    /// Whether the embedded learners' file exists: a command that only reads learners says
    /// "nobody yet" rather than creating it.
    public var hasLearners: Bool {
        postgres != nil || FileManager.default.fileExists(atPath: environment.home.userDatabase)
    }

    private func learners() async throws -> LearnerPart {
        let catalog = try await catalog()
        return try await learnerPart.value { [self] in
            // A learner who chose no time zone has this machine's, and days start at 4 am.
            func learning(_ store: any LearnerStore) -> LearningService {
                LearningService(store: store, catalog: catalog, mandarin: dictionary, days: LocalDays(timeZone: .current), now: environment.clock.now)
            }
            if let postgres {
                let service = learning(postgres.learners)
                return LearnerPart(
                    learning: service,
                    classes: ClassService(
                        learning: service, book: ClassBook(documents: postgres.documents), archive: recordings),
                    use: ([postgres.database.use], nil))
            }
            try DurableFile.createDirectory(environment.home.root)
            let store = try SQLiteLearnerStore(path: environment.home.userDatabase)
            let service = learning(store)
            return LearnerPart(
                learning: service,
                classes: ClassService(
                    learning: service, book: ClassBook(documents: try documents()), archive: recordings),
                use: (store.pools, store.commitTimes))
        }
    }

    /// The learner's own documents in user.sqlite: downloaded definitions, quiz history, classes.
    public func documents() throws -> SQLiteDocumentStore {
        try documentsPart.withLock { store in
            if let store { return store }
            try DurableFile.createDirectory(environment.home.root)
            let made = try SQLiteDocumentStore(path: environment.home.userDatabase, migrator: UserDatabase.migrator)
            store = made
            return made
        }
    }

    // MARK: Mandarin

    /// The imported dictionary file itself, for the `moe` commands; one read-only connection
    /// per caller (it belongs to one task).
    public func moe() throws -> MOEDictionary { try MOEDictionary(path: environment.home.moeDatabase) }

    // MARK: Settings and the online dictionary

    /// `config.json` in the home folder: a missing file is an empty configuration; a broken
    /// one is an error, not silently ignored.
    public func config() throws -> UserConfig { try Self.config(of: environment) }

    static func config(of environment: VocabEnvironment) throws -> UserConfig {
        let path = environment.home.configFile
        guard let data = FileManager.default.contents(atPath: path) else { return UserConfig() }
        do {
            return try JSONDecoder().decode(UserConfig.self, from: data)
        } catch {
            throw Failure(.badConfig, "\(path) is not valid: expected an object like {\"dictionaryURL\": \"https://…\", \"randomURL\": \"https://…\"}.")
        }
    }

    /// The online dictionary, its saved answers in the learner's documents.
    public func definitions(endpoint: Endpoint, options: HTTPRequestOptions) throws -> DefinitionService {
        DefinitionService(client: DictionaryAPIClient(http: CurlHTTPClient(), baseURL: endpoint.url, options: options), store: try documents())
    }

    /// Backups and restores of the learners' data on this engine.
    /// Anki packages and CSV of a library or the catalog, with their clips and drawings.
    public func exports() -> ExportService { ExportService(clips: audio.clips().service, pictures: environment.picturesDirectory) }

    public var backup: Backup { Backup(database: database, home: environment.home) }

    // MARK: Running

    /// For a command: on PostgreSQL starts the pool, checks the database answers and applies the
    /// schema steps it lacks, runs `body`, and closes the pool whatever happens.
    public func run<T>(reachableWithin: Duration = .seconds(5), _ body: (VocabApp) async throws -> T) async throws -> T {
        guard let postgres else { return try await body(self) }
        return try await postgres.whileRunning(reachableWithin: reachableWithin) { _ in try await body(self) }
    }
}

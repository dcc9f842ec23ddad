import AppCore
import Catalog
import Classes
import Learners
import Logging
import Mandarin
import PostgresStore
import Store
import Usage

/// The running system, built once from its environment: the catalog, the learners and the
/// Mandarin dictionary on the engine one rule chose (`DatabaseChoice`: the flag, then
/// $VOCAB_DATABASE_URL, then config.json, else the embedded SQLite files), and the services
/// over them. `vocab serve` takes it and only adds routes; every command that reads or writes
/// learners runs inside it; tests build it the same way. Services get their collaborators
/// from it, never the container.
public struct VocabApp: Sendable {
    /// Who uses it: a command (a few connections, its catalog answers cached in a file) or the
    /// server (a pool for many requests with a deadline, answers cached in memory).
    public enum Use: Sendable { case command, server }

    public let services: VocabServices
    public let database: DatabaseChoice
    public let catalog: CatalogService
    /// How the category files were found, when the catalog comes from them (not on PostgreSQL).
    public let catalogStatus: CatalogIndexer.Status?
    /// moe.sqlite, or the database's copy that `vocab db push` loaded.
    public let dictionary: any MandarinDictionary
    public let learning: LearningService
    /// Classes, children and assignments, kept as documents beside the learners.
    public let classes: ClassService
    /// The shared database when the rule chose PostgreSQL. Its pool runs inside `run` (a
    /// command) or in the server's service group.
    public let postgres: ServerDatabase?
    /// The learners' database as an operator watches it: its connections or queues in use and
    /// waited for, and on SQLite how long each commit took to be on disk.
    public let databaseUse: (pools: [PoolUse], commitTimes: DurationCounts?)

    public var search: SearchService { SearchService(catalog: catalog, dictionary: dictionary) }

    /// The database the rule chooses for this environment, `flag` first.
    public static func databaseChoice(flag: String?, services: VocabServices) throws -> DatabaseChoice {
        try DatabaseChoice.resolve(flag: flag, config: try services.config())
    }

    /// Builds the system without reaching a server: on PostgreSQL nothing is read until the
    /// pool runs.
    public static func build(
        services: VocabServices, database: DatabaseChoice, use: Use,
        logger: Logger = PostgresPool.silentLogger
    ) async throws -> VocabApp {
        switch database {
        case .embedded:
            let (catalog, status) = try await services.environment.openCatalog(cache: use == .server ? .memory : .file)
            let dictionary = services.mandarinDictionary()
            let store = try services.learnerStore()
            let learning = services.learning(catalog: catalog, store: store, mandarin: dictionary)
            return VocabApp(
                services: services, database: database, catalog: catalog, catalogStatus: status, dictionary: dictionary,
                learning: learning, classes: ClassService(learning: learning, book: ClassBook(documents: try services.userStore())),
                postgres: nil, databaseUse: (store.pools, store.commitTimes))
        case .postgres(let url, _):
            // A server gives up on statements that cannot get a connection and finish within 5 s
            // (HTTP 503); a command has a few connections and waits.
            let server =
                use == .server
                ? try ServerDatabase(url: url, maximumConnections: 20, deadline: .seconds(5), logger: logger)
                : try ServerDatabase(url: url, maximumConnections: 4)
            let catalog = services.catalog(on: server)
            let learning = services.learning(catalog: catalog, store: server.learners, mandarin: server.mandarin)
            return VocabApp(
                services: services, database: database, catalog: catalog, catalogStatus: nil, dictionary: server.mandarin,
                learning: learning, classes: ClassService(learning: learning, book: ClassBook(documents: server.documents)),
                postgres: server, databaseUse: ([server.database.use], nil))
        }
    }

    /// For a command: on PostgreSQL starts the pool, checks the database answers and applies the
    /// schema steps it lacks, runs `body`, and closes the pool whatever happens.
    public func run<T>(reachableWithin: Duration = .seconds(5), _ body: (VocabApp) async throws -> T) async throws -> T {
        guard let postgres else { return try await body(self) }
        return try await postgres.whileRunning(reachableWithin: reachableWithin) { _ in try await body(self) }
    }
}

import AppCore
import Catalog
import Foundation
import Learners
import Logging
import PostgresLearners
import PostgresMandarin
import PostgresStore
import Store

/// Where the shared data of `vocab serve` lives: the embedded SQLite files beside one process
/// (the default), or a PostgreSQL database that several instances share.
public enum DatabaseChoice: Sendable, Equatable {
    case embedded
    case postgres(url: String, origin: String)

    public static let variable = "VOCAB_DATABASE_URL"

    /// Precedence: the flag, then $VOCAB_DATABASE_URL, then config.json's `databaseURL`.
    public static func resolve(
        flag: String?, config: UserConfig,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> DatabaseChoice {
        let chosen: (String, String)? =
            if let flag { (flag, "--database") } else if let value = environment[variable], !value.isEmpty {
                (value, "$" + variable)
            } else if let value = config.databaseURL, !value.isEmpty { (value, "config.json databaseURL") } else { nil }
        guard let (url, origin) = chosen else { return .embedded }
        do {
            _ = try PostgresPool.configuration(url: url)
        } catch let error as PostgresStoreError {
            throw Failure(.badDatabaseURL, "\(origin): \(Failure.escapingControls(error.description))")
        }
        return .postgres(url: url, origin: origin)
    }
}

/// The PostgreSQL side of the server: one pool of connections, the catalog's documents, the
/// learners' downloaded definitions and quiz history, the learners themselves, and the
/// Mandarin dictionary.
public final class ServerDatabase: Sendable {
    public let database: PostgresPool
    /// The catalog, as `vocab db push` loaded it.
    public let catalog: PostgresDocumentStore
    /// What user.sqlite's documents hold for the embedded engine.
    public let documents: PostgresDocumentStore
    public let learners: PostgresLearnerStore
    /// The Mandarin dictionary, as `vocab db push` loaded it from moe.sqlite.
    public let mandarin: PostgresMandarinDictionary

    public static let migrators = [PostgresDocumentStore.migrator, PostgresLearnerStore.migrator, PostgresMandarinDictionary.migrator]
    public static let catalogSpace = "catalog"
    /// What a dictionary push notifies on the change channel.
    public static let mandarinChange = PostgresMandarinDictionary.changePayload

    public init(url: String, maximumConnections: Int = 20, deadline: Duration? = nil, logger: Logger = PostgresPool.silentLogger) throws {
        database = try PostgresPool(url: url, maximumConnections: maximumConnections, deadline: deadline, logger: logger)
        catalog = PostgresDocumentStore(database: database, space: Self.catalogSpace)
        documents = PostgresDocumentStore(database: database, space: "user")
        learners = PostgresLearnerStore(database: database)
        mandarin = PostgresMandarinDictionary(database: database)
    }

    /// For one command: starts the pool, checks the database answers, applies the schema steps
    /// it lacks (given to `body` as `migrate` returns them), runs `body`, and closes the pool
    /// whatever happens.
    /// `reachableWithin`: how long the first statement may wait; a database that cannot be
    /// reached is reported after it (5 s, so a mistyped URL does not keep a person waiting).
    public func whileRunning<T>(reachableWithin: Duration = .seconds(5), _ body: ([String]) async throws -> T) async throws -> T {
        database.start()
        do {
            try await database.checkReachable(within: reachableWithin)
            let result = try await body(try await migrate())
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }

    /// Applies the schema steps the database lacks; returns them as "learners 1: …".
    @discardableResult
    public func migrate() async throws -> [String] {
        var applied: [String] = []
        for migrator in Self.migrators {
            applied += try await migrator.migrate(database).map { "\(migrator.component) \($0.version): \($0.description)" }
        }
        return applied
    }

    /// Each component's schema version in the database and the latest this vocab knows.
    public func schemaVersions() async throws -> [(component: String, version: Int, latest: Int)] {
        var out: [(String, Int, Int)] = []
        for migrator in Self.migrators { out.append((migrator.component, try await migrator.version(in: database), migrator.latest)) }
        return out
    }

    /// Replaces the catalog in the database with the one in `store` (the indexed category files).
    public func push(catalogFrom store: any DocumentStore) async throws -> (categories: Int, words: Int) {
        let categories = try await store.query(Query(CatalogService.categories))
        let words = try await store.query(Query(CatalogService.words))
        for (collection, field) in CatalogIndexer.indexedFields { try await catalog.ensureIndex(on: field, in: collection) }
        try await catalog.replace([CatalogService.categories: categories, CatalogService.words: words])
        return (categories.count, words.count)
    }

    /// Replaces the database's dictionary with the import at `path` (moe.sqlite); nil, with
    /// nothing changed, when there is no import there.
    public func push(mandarinFrom path: String, progress: @escaping @Sendable (String) -> Void) async throws -> MOEPushSummary? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try await mandarin.push(fromSQLite: path, progress: progress)
    }

    /// Whether `vocab db push` has loaded a catalog.
    public func hasCatalog() async throws -> Bool {
        try await catalog.count(Query(CatalogService.categories)) > 0
    }
}

import Foundation
import Logging
import Offloading
import PostgresNIO
import Synchronization
import Usage
import _ConnectionPoolModule

/// One PostgreSQL database reached through a pool of connections (postgres-nio's
/// `PostgresClient`). The pool must run for queries to be answered: the server runs it as a
/// service beside the HTTP server; commands and tests call `start()` and `shutdown()`.
public final class PostgresPool: Sendable {
    public let client: PostgresClient
    public let configuration: PostgresClient.Configuration
    /// The URL without its password, for messages.
    public let displayURL: String
    let logger: Logger
    private let runner = Mutex<Task<Void, Never>?>(nil)

    /// How long one statement or transaction may wait for a connection and run before it is
    /// given up as unavailable (nil: no limit, for tools). The pool queues requests while it
    /// cannot connect, for up to a minute; a server answers 503 long before that.
    public let deadline: Duration?
    /// Connections leased now, statements waiting for one, and how long each waited.
    public let use = PoolUse(name: "postgres")

    public init(url: String, maximumConnections: Int = 20, deadline: Duration? = nil, logger: Logger = PostgresPool.silentLogger) throws {
        let configuration = try Self.configuration(url: url, maximumConnections: maximumConnections)
        self.configuration = configuration
        self.deadline = deadline
        displayURL = Self.display(url)
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// For tools and tests: the pool's own notices would otherwise reach standard output
    /// (swift-log's default), in the middle of --json answers.
    public static let silentLogger = Logger(label: "vocab.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs the pool in a task of its own, for callers without a service group.
    public func start() {
        runner.withLock { task in
            guard task == nil else { return }
            let client = client
            task = Task { await client.run() }
        }
    }

    /// Closes the pool that `start()` runs.
    public func shutdown() async {
        let task = runner.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
    /// (also `postgresql://`). Without `sslmode`, loopback hosts connect in plain text and
    /// others prefer TLS.
    public static func configuration(url: String, maximumConnections: Int = 20) throws -> PostgresClient.Configuration {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, ["postgres", "postgresql"].contains(scheme),
            let host = parts.host, !host.isEmpty
        else { throw PostgresStoreError("'\(display(url))' is not a PostgreSQL URL: use postgres://user@host:port/database", kind: .badURL) }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw PostgresStoreError("'\(display(url))' names no database: add /NAME after the host", kind: .badURL) }
        let user = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        let sslmode = parts.queryItems?.first(where: { $0.name == "sslmode" })?.value
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        let tls: PostgresClient.Configuration.TLS
        switch sslmode ?? (loopback ? "disable" : "prefer") {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let other: throw PostgresStoreError("sslmode '\(other)' is not one of disable, prefer, require", kind: .badURL)
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: user, password: password,
            database: database, tls: tls)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(3)
        return configuration
    }

    static func display(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? url
    }

    // MARK: running SQL

    /// Fails as unavailable unless the server answers within `time` (a tool's first step: the
    /// pool itself keeps waiting for a server that is down, for up to a minute).
    public func checkReachable(within time: Duration = .seconds(5)) async throws {
        let client = client
        let logger = logger
        _ = try await limited(time) { try await client.query("SELECT 1", logger: logger).collect() }
    }

    /// Runs a statement and collects its rows.
    @discardableResult
    public func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = logger
        return try await limited { [self] in try await leased { connection in try await connection.query(query, logger: logger).collect() } }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back
    /// when it throws (its own error is rethrown as it is). `unlimited`: not cut off at the
    /// pool's deadline, for schema steps (an upgrade may count years of logs, far longer than a
    /// request may wait).
    public func transaction<T: Sendable>(unlimited: Bool = false, _ body: @escaping @Sendable (Transaction) async throws -> T) async throws -> T {
        let logger = logger
        let work: @Sendable () async throws -> T = { [self] in
            try await leased { connection in
                let transaction = Transaction(connection: connection, logger: logger)
                try await transaction.run("BEGIN")
                let result: T
                do {
                    result = try await body(transaction)
                } catch {
                    try? await transaction.run("ROLLBACK")
                    throw error
                }
                try await transaction.run("COMMIT")
                return result
            }
        }
        return unlimited ? try await work() : try await limited(nil, work)
    }

    /// Runs `body` on a connection of the pool, counted in `use`.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let use = use
        let asked = use.asked()
        let turn = Turn()
        do {
            return try await client.withConnection { connection in
                turn.began.withLock { $0 = true }
                use.started(asked: asked)
                defer { use.finished() }
                return try await body(connection)
            }
        } catch {
            // No connection came (the server is down, the deadline passed): it waits no more.
            if !turn.began.withLock({ $0 }) { use.gaveUp() }
            throw error
        }
    }

    private final class Turn: Sendable {
        let began = Mutex(false)
    }

    /// Runs `work` within the deadline; past it the caller gets `unavailable` at once and the
    /// work is cancelled (and left to end by itself: a statement on a connection the server
    /// dropped may take a while to notice). A transaction cut off before COMMIT is rolled back
    /// by the server when its connection closes.
    private func limited<T: Sendable>(_ limit: Duration? = nil, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let deadline = limit ?? deadline else { return try await work() }
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        do {
            return try await withDeadline(seconds: seconds, work)
        } catch is DeadlineExceeded {
            throw PostgresStoreError("the database did not answer within \(deadline)", kind: .unavailable)
        }
    }

    /// One connection inside `BEGIN … COMMIT`.
    public struct Transaction: Sendable {
        public let connection: PostgresConnection
        let logger: Logger

        @discardableResult
        public func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.query(query, logger: logger).collect()
        }

        public func run(_ query: PostgresQuery) async throws {
            try await connection.query(query, logger: logger).collect()
        }
    }
}

public struct PostgresStoreError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case badURL, newerSchema, unavailable, other }
    public let kind: Kind
    public let description: String
    public init(_ description: String, kind: Kind = .other) {
        self.kind = kind
        self.description = description
    }
}

extension PSQLError {
    /// The SQLSTATE of an error the server reported (23505: a unique key taken).
    public var sqlState: String? { serverInfo?[.sqlState] }
}

extension Error {
    /// True when the database could not be reached or the connection was lost: the request may
    /// succeed once PostgreSQL is back (HTTP 503), unlike a refused statement.
    public var isPostgresUnavailable: Bool {
        if self is ConnectionPoolError { return true }
        if let error = self as? PostgresStoreError { return error.kind == .unavailable }
        guard let error = self as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
        case .server:
            // 57P01-03: the server is shutting down or starting; 08xxx: connection exceptions.
            guard let state = error.sqlState else { return false }
            return state.hasPrefix("57P") || state.hasPrefix("08")
        default: return false
        }
    }
}

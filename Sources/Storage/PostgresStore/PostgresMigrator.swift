import Foundation
import Logging
import PostgresNIO

/// Versioned schema changes, applied in order and recorded in `schema_migrations`, so every
/// instance and `vocab db migrate` agree on what a database holds. Each owner of tables (the
/// document store, the learner store) numbers its own steps.
public struct PostgresMigrator: Sendable {
    public struct Step: Sendable {
        public let version: Int
        public let description: String
        public let sql: String
        /// What the step does after its statements that SQL cannot say once for every engine
        /// (counting a log with the rules the stores count it by), in the same transaction.
        public let then: (@Sendable (PostgresPool.Transaction) async throws -> Void)?
        /// The step's statements (`sql` split at the semicolons that end its lines).
        var statements: [String] {
            sql.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
        }
        public init(
            _ version: Int, _ description: String, sql: String, then: (@Sendable (PostgresPool.Transaction) async throws -> Void)? = nil
        ) {
            self.version = version
            self.description = description
            self.sql = sql
            self.then = then
        }
    }

    /// Who owns the steps: "documents", "learners".
    public let component: String
    public let steps: [Step]

    public init(component: String, steps: [Step]) {
        precondition(steps.map(\.version) == Array(1...steps.count), "steps are numbered 1, 2, 3…")
        self.component = component
        self.steps = steps
    }

    public var latest: Int { steps.count }

    /// Applies the steps the database lacks, all in one transaction (all or none); returns those applied.
    /// Instances starting together wait for one another (an advisory lock), so a step runs once.
    @discardableResult
    public func migrate(_ database: PostgresPool) async throws -> [Step] {
        try await database.transaction(unlimited: true) { tx in
            try await tx.run("SELECT pg_advisory_xact_lock(7700114)")
            try await tx.run(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations(
                    component text NOT NULL, version int NOT NULL, description text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (component, version))
                """)
            let current = try await Self.version(component, in: tx)
            guard current <= latest else {
                throw PostgresStoreError(
                    "the database's \(component) schema is at version \(current), newer than this vocab knows (\(latest)): upgrade vocab", kind: .newerSchema)
            }
            var applied: [Step] = []
            for step in steps where step.version > current {
                // One statement at a time: the extended protocol takes no more per message.
                for statement in step.statements { try await tx.run(PostgresQuery(unsafeSQL: statement)) }
                try await step.then?(tx)
                try await tx.run("INSERT INTO schema_migrations(component, version, description) VALUES (\(component), \(step.version), \(step.description))")
                applied.append(step)
            }
            return applied
        }
    }

    /// The version a database is at (0: none of the steps).
    public func version(in database: PostgresPool) async throws -> Int {
        try await database.transaction { tx in
            let exists = try await tx.rows("SELECT to_regclass('schema_migrations') IS NOT NULL")
            guard try exists.first?.decode(Bool.self) == true else { return 0 }
            return try await Self.version(component, in: tx)
        }
    }

    static func version(_ component: String, in tx: PostgresPool.Transaction) async throws -> Int {
        let rows = try await tx.rows("SELECT coalesce(max(version), 0) FROM schema_migrations WHERE component = \(component)")
        return try rows.first?.decode(Int.self) ?? 0
    }
}

import PostgresLearners
import PostgresStore
import SQLiteDB
import TestSupport
import Testing

@testable import Learners

/// The learner tables are declared once per engine (SQL differs), so their migrations are held
/// to one shape here: after every step, both engines have the same tables, the same columns
/// with the same kind of value and nullability, and the same indexes.
@Suite("The learner schema is the same on user.sqlite and on PostgreSQL")
struct LearnerSchemaTests {
    static let tables = ["learners", "tokens", "items", "cards", "reviews", "sessions"]

    struct Shape: Equatable, CustomStringConvertible {
        /// "table.column kind null|not null"
        var columns: Set<String>
        /// Index names beyond the ones primary keys and UNIQUE constraints make.
        var indexes: Set<String>
        var description: String { "columns \(columns.sorted())\nindexes \(indexes.sorted())" }
    }

    static func sqliteShape() throws -> Shape {
        let dir = try TemporaryDirectory("schema")
        defer { dir.remove() }
        _ = try SQLiteLearnerStore(path: dir.file("user.sqlite"))
        let db = try Database(path: dir.file("user.sqlite"))
        var columns = Set<String>()
        for table in tables {
            let rows = try db.query("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]) { row in
                (row.text(0) ?? "", row.text(1) ?? "", row.int(2), row.int(3))
            }
            for (name, type, notNull, pk) in rows {
                let kind = ["INTEGER": "integer", "REAL": "real", "TEXT": "text", "BLOB": "blob"][type.uppercased()] ?? type
                columns.insert("\(table).\(name) \(kind) \(notNull != 0 || pk != 0 ? "not null" : "null")")
            }
        }
        let marks = tables.map { _ in "?" }.joined(separator: ",")
        let indexes = try db.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (\(marks)) AND name NOT LIKE 'sqlite_autoindex%'",
            tables.map { .text($0) }
        ) { $0.text(0) ?? "" }
        return Shape(columns: columns, indexes: Set(indexes))
    }

    static func postgresShape() async throws -> Shape {
        let url = try TestPostgres.shared().createDatabase("schema")
        let database = try PostgresPool(url: url, maximumConnections: 2)
        database.start()
        do {
            let shape = try await postgresShape(database)
            await database.shutdown()
            return shape
        } catch {
            await database.shutdown()
            throw error
        }
    }

    static func postgresShape(_ database: PostgresPool) async throws -> Shape {
        try await database.checkReachable(within: .seconds(60))
        try await PostgresLearnerStore.migrator.migrate(database)
        let kinds = ["bigint": "integer", "integer": "integer", "double precision": "real", "text": "text", "bytea": "blob"]
        var columns = Set<String>()
        for row in try await database.rows(
            """
            SELECT table_name::text, column_name::text, data_type::text, is_nullable::text FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = ANY(\(tables))
            """)
        {
            let (table, name, type, nullable) = try row.decode((String, String, String, String).self)
            columns.insert("\(table).\(name) \(kinds[type] ?? type) \(nullable == "YES" ? "null" : "not null")")
        }
        var indexes = Set<String>()
        for row in try await database.rows(
            """
            SELECT i.indexname::text FROM pg_indexes i
            WHERE i.schemaname = 'public' AND i.tablename = ANY(\(tables))
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
            """)
        {
            indexes.insert(try row.decode(String.self))
        }
        return Shape(columns: columns, indexes: indexes)
    }

    @Test("the same tables, columns, kinds, nullability and indexes after all migrations")
    func sameShape() async throws {
        let sqlite = try Self.sqliteShape()
        let postgres = try await Self.postgresShape()
        #expect(sqlite.columns.count > 40, "\(sqlite)")
        #expect(
            sqlite.columns.subtracting(postgres.columns).isEmpty && postgres.columns.subtracting(sqlite.columns).isEmpty,
            "only on SQLite: \(sqlite.columns.subtracting(postgres.columns).sorted()); only on PostgreSQL: \(postgres.columns.subtracting(sqlite.columns).sorted())"
        )
        #expect(sqlite.indexes == postgres.indexes, "SQLite \(sqlite.indexes.sorted()); PostgreSQL \(postgres.indexes.sorted())")
    }
}

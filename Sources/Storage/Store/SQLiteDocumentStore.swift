import SQLiteDB

/// The document store on one SQLite file.
///
/// Documents live as JSON text in `documents`. Declared fields are copied into `field_index`
/// on every write (one row per scalar, one per array element), so equality, array-contains and
/// prefix filters are index lookups instead of scans over JSON.
public actor SQLiteDocumentStore: DocumentStore {
    private let db: Database
    private var indexed: Set<String> = [] // "collection\u{1}field"

    public let path: String

    /// Opens (creating if needed) a store. `durable: false` trades crash safety for speed,
    /// for stores built in a temporary file and renamed into place only when complete.
    ///
    /// A file whose owner versions it passes its `migrator`, whose first step creates the
    /// store's tables (`schema`); without one the tables are created as needed.
    public init(path: String, readOnly: Bool = false, durable: Bool = true, migrator: Migrator? = nil) throws {
        self.path = path
        let database = try Database(path: path, mode: readOnly ? .readOnly : .readWriteCreate)
        if !readOnly {
            // Two processes setting up one new file at once: the journal-mode change does not
            // wait for the other's lock by itself.
            try retryingWhileBusy {
                if durable {
                    try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
                } else {
                    try database.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
                }
            }
            if let migrator {
                try migrator.migrate(database)
            } else {
                try retryingWhileBusy { try database.execute(Self.schema) }
            }
        }
        db = database
        indexed = Set(
            try db.query("SELECT collection, field FROM indexed_fields") {
                "\($0.text(0) ?? "")\u{1}\($0.text(1) ?? "")"
            })
    }

    public static let schema = """
        CREATE TABLE IF NOT EXISTS documents(
            collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (collection, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS field_index(
            collection TEXT NOT NULL, field TEXT NOT NULL, element INTEGER NOT NULL, value, id TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS field_index_lookup ON field_index(collection, field, element, value, id);
        CREATE INDEX IF NOT EXISTS field_index_document ON field_index(collection, id);
        CREATE TABLE IF NOT EXISTS indexed_fields(
            collection TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (collection, field)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS store_meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        INSERT OR IGNORE INTO store_meta VALUES ('generation', lower(hex(randomblob(8))));
        INSERT OR IGNORE INTO store_meta VALUES ('revision', 0);
        """

    // MARK: writes

    public func ensureIndex(on field: String, in collection: String) throws {
        try FieldPath.check(field)
        guard !indexed.contains(key(collection, field)) else { return }
        try db.transaction {
            try db.run("INSERT OR IGNORE INTO indexed_fields VALUES (?, ?)", [.text(collection), .text(field)])
            // Backfill documents written before the index existed.
            try db.run(
                """
                INSERT INTO field_index(collection, field, element, value, id)
                SELECT d.collection, ?2, j.key IS NOT NULL, j.value, d.id
                FROM documents d, json_each(d.body, ?3) j
                WHERE d.collection = ?1 AND j.type NOT IN ('object', 'array')
                """, [.text(collection), .text(field), .text(Self.jsonPath(field))])
            try bumpRevision()
        }
        indexed.insert(key(collection, field))
    }

    public func put(_ documents: [Document], in collection: String) throws {
        try db.transaction {
            for document in documents { try write(document, in: collection) }
            try bumpRevision()
        }
    }

    private func write(_ document: Document, in collection: String) throws {
        let c = SQLValue.text(collection)
        let id = SQLValue.text(document.id)
        let body = SQLValue.text(document.json)
        do {
            try db.run(
                """
                INSERT INTO documents(collection, id, body) VALUES (?1, ?2, json(?3))
                ON CONFLICT(collection, id) DO UPDATE SET body = excluded.body
                """, [c, id, body])
        } catch let error as SQLiteError where error.message.contains("malformed JSON") {
            throw StoreError("document \(collection)/\(document.id) is not valid JSON")
        }
        try db.run("DELETE FROM field_index WHERE collection = ?1 AND id = ?2", [c, id])
        try db.run(
            """
            INSERT INTO field_index(collection, field, element, value, id)
            SELECT f.collection, f.field, j.key IS NOT NULL, j.value, ?2
            FROM indexed_fields f, json_each(?3, '$.' || f.field) j
            WHERE f.collection = ?1 AND j.type NOT IN ('object', 'array')
            """, [c, id, body])
    }

    @discardableResult
    public func delete(_ id: String, in collection: String) throws -> Bool {
        try db.transaction {
            try db.run("DELETE FROM documents WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)])
            let removed = db.changes > 0
            try db.run("DELETE FROM field_index WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)])
            if removed { try bumpRevision() }
            return removed
        }
    }

    private func bumpRevision() throws {
        try db.run("UPDATE store_meta SET value = value + 1 WHERE key = 'revision'")
    }

    // MARK: reads

    public func get(_ id: String, in collection: String) throws -> Document? {
        try db.query(
            "SELECT id, body FROM documents WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { Document(id: $0.text(0) ?? "", json: $0.text(1) ?? "{}") }.first
    }

    /// One statement each: on an embedded file a read costs no round trip.
    public func get(_ ids: [String], in collection: String) throws -> [Document] {
        try ids.compactMap { try get($0, in: collection) }
    }

    public func query(_ query: Query) throws -> [Document] {
        let (sql, values) = try compile(query, select: "d.id, d.body")
        return try db.query(sql, values) { Document(id: $0.text(0) ?? "", json: $0.text(1) ?? "{}") }
    }

    public func select(_ fields: [String], matching query: Query) throws -> [Projection] {
        for field in fields { try FieldPath.check(field) }
        let picks = fields.map { "json_extract(d.body, '\(Self.jsonPath($0))')" }
        let (sql, values) = try compile(query, select: (["d.id", "d.body"] + picks).joined(separator: ", "))
        return try db.query(sql, values) { row in
            Projection(
                document: Document(id: row.text(0) ?? "", json: row.text(1) ?? "{}"),
                values: (0..<fields.count).map { FieldValue(row.value($0 + 2)) })
        }
    }

    public func count(_ query: Query) throws -> Int {
        var q = query
        q.order = []
        q.limit = nil
        q.offset = 0
        let (sql, values) = try compile(q, select: "count(*)")
        return Int(try db.scalar(sql, values)?.intValue ?? 0)
    }

    public func valueCounts(of field: String, matching query: Query) throws -> [FieldValue: Int] {
        guard indexed.contains(key(query.collection, field)) else {
            throw StoreError("valueCounts needs an index on \(query.collection).\(field)")
        }
        var q = query
        q.order = []
        q.limit = nil
        q.offset = 0
        let (inner, values) = try compile(q, select: "d.id")
        let sql = """
            SELECT value, count(DISTINCT id) FROM field_index
            WHERE collection = ? AND field = ? AND id IN (\(inner)) GROUP BY value
            """
        var out: [FieldValue: Int] = [:]
        for (value, n) in try db.query(sql, [.text(query.collection), .text(field)] + values, map: { ($0.value(0), Int($0.int(1))) }) {
            if let v = FieldValue(value) { out[v] = n }
        }
        return out
    }

    public func revision() throws -> String {
        let rows = try db.query("SELECT key, value FROM store_meta WHERE key IN ('generation', 'revision') ORDER BY key") {
            ($0.text(1) ?? "")
        }
        return rows.joined(separator: "-")
    }

    /// The file's `user_version` (see `Migrator`).
    public func schemaVersion() throws -> Int { try Migrator.version(of: db) }

    /// Marks a file built whole as the latest version of its layout.
    public func stampVersion(_ migrator: Migrator) throws { try migrator.stamp(db) }

    /// SQLite's plan for a query, so tests can prove that indexed filters do not scan.
    public func plan(_ query: Query) throws -> [String] {
        let (sql, values) = try compile(query, select: "d.id, d.body")
        return try db.query("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) ?? "" }
    }

    /// Runs a read-only SQL query; for tools that compare against the store's own tables.
    public func rawScalar(_ sql: String) throws -> SQLValue? { try db.scalar(sql) }

    // MARK: query compilation

    private func compile(_ query: Query, select: String) throws -> (String, [SQLValue]) {
        var sql = "SELECT \(select) FROM documents d WHERE d.collection = ?"
        var values: [SQLValue] = [.text(query.collection)]
        for filter in query.filters {
            try FieldPath.check(filter.field)
            let isIndexed = indexed.contains(key(query.collection, filter.field))
            let path = Self.jsonPath(filter.field)
            switch (filter, isIndexed) {
            case (.equal(let f, let v), true), (.arrayContains(let f, let v), true):
                let element = if case .arrayContains = filter { 1 } else { 0 }
                sql += " AND d.id IN (SELECT id FROM field_index WHERE collection = ? AND field = ? AND element = \(element) AND value = ?)"
                values += [.text(query.collection), .text(f), v.sqlValue]
            case (.prefix(let f, let p), true):
                sql += " AND d.id IN (SELECT id FROM field_index WHERE collection = ? AND field = ? AND element IN (0, 1) AND value >= ? AND value < ?)"
                values += [.text(query.collection), .text(f), .text(p), .text(p + "\u{10FFFF}")]
            case (.contains(let f, let s), true):
                sql += " AND d.id IN (SELECT id FROM field_index WHERE collection = ? AND field = ? AND element IN (0, 1) AND instr(value, ?) > 0)"
                values += [.text(query.collection), .text(f), .text(s)]
            case (.equal(_, let v), false):
                sql += " AND json_extract(d.body, ?) = ?"
                values += [.text(path), v.sqlValue]
            case (.arrayContains(_, let v), false):
                sql += " AND EXISTS (SELECT 1 FROM json_each(d.body, ?) WHERE value = ?)"
                values += [.text(path), v.sqlValue]
            case (.prefix(_, let p), false):
                sql += " AND EXISTS (SELECT 1 FROM json_tree(d.body, ?) WHERE atom >= ? AND atom < ?)"
                values += [.text(path), .text(p), .text(p + "\u{10FFFF}")]
            case (.contains(_, let s), false):
                sql += " AND EXISTS (SELECT 1 FROM json_tree(d.body, ?) WHERE instr(atom, ?) > 0)"
                values += [.text(path), .text(s)]
            }
        }
        if !query.order.isEmpty {
            let terms = try query.order.map { o -> String in
                try FieldPath.check(o.field)
                return "json_extract(d.body, '\(Self.jsonPath(o.field))')\(o.descending ? " DESC" : "")"
            }
            sql += " ORDER BY " + terms.joined(separator: ", ") + ", d.id"
        }
        if let limit = query.limit {
            sql += " LIMIT ? OFFSET ?"
            values += [.integer(Int64(max(0, limit))), .integer(Int64(max(0, query.offset)))]
        } else if query.offset > 0 {
            sql += " LIMIT -1 OFFSET ?"
            values.append(.integer(Int64(query.offset)))
        }
        return (sql, values)
    }

    private func key(_ collection: String, _ field: String) -> String { "\(collection)\u{1}\(field)" }

    static func jsonPath(_ field: String) -> String { "$." + field }
}

extension FieldValue {
    var sqlValue: SQLValue {
        switch self {
        case .string(let s): return .text(s)
        case .integer(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .bool(let b): return .integer(b ? 1 : 0)
        }
    }

    init?(_ value: SQLValue) {
        switch value {
        case .text(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .real(let d): self = .double(d)
        case .null, .blob: return nil
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
}

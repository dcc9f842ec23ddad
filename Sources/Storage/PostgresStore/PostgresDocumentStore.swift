import JSONReading
import Logging
import PostgresNIO
import Store
import Synchronization

/// The document store on PostgreSQL, for several instances of `vocab serve` on one database.
///
/// Documents are rows keyed by (space, collection, id): `space` keeps stores apart in one
/// database (the catalog, the learners' downloaded definitions), each with its own revision.
/// The body is kept twice: as the text written, so readers pass on exactly the bytes the SQLite
/// store would, and as `jsonb`, which the filters read. A GIN index (`jsonb_path_ops`) answers
/// equality and array-contains (`@>`); a declared field gets an expression index for ordering.
/// Prefix and substring filters read the rows the other filters leave.
public final class PostgresDocumentStore: DocumentStore {
    public let database: PostgresPool
    public let space: String
    /// Declared fields ("collection\u{1}field"), read once and then kept current by this instance.
    private let indexed = Mutex<Set<String>?>(nil)

    /// The channel every write notifies, with the payload "documents:SPACE".
    public static let channel = "vocab_changes"

    public init(database: PostgresPool, space: String) {
        self.database = database
        self.space = space
    }

    public static let migrator = PostgresMigrator(
        component: "documents",
        steps: [
            .init(
                1, "documents as text and jsonb, declared fields, revisions per space",
                sql: """
                    CREATE TABLE documents(
                        space text NOT NULL, collection text NOT NULL, id text NOT NULL, body text NOT NULL, data jsonb NOT NULL,
                        PRIMARY KEY (space, collection, id));
                    CREATE INDEX documents_data ON documents USING gin (data jsonb_path_ops);
                    CREATE TABLE document_fields(
                        space text NOT NULL, collection text NOT NULL, field text NOT NULL, PRIMARY KEY (space, collection, field));
                    CREATE TABLE document_revisions(
                        space text PRIMARY KEY, generation text NOT NULL, revision bigint NOT NULL DEFAULT 0);
                    """)
        ])

    // MARK: writes

    public func ensureIndex(on field: String, in collection: String) async throws {
        try FieldPath.check(field)
        if try await indexedFields().contains(key(collection, field)) { return }
        let name = "documents_order_" + Self.hash("\(space)\u{1}\(collection)\u{1}\(field)")
        try await database.transaction { [self] tx in
            // Two instances declaring the same field at once: one creates the index.
            try await tx.run("SELECT pg_advisory_xact_lock(7700115)")
            try await tx.run(
                """
                INSERT INTO document_fields(space, collection, field) VALUES (\(space), \(collection), \(field)) ON CONFLICT DO NOTHING
                """)
            try await tx.run(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE INDEX IF NOT EXISTS \(name) ON documents ((data #> '\(Self.pathArray(field))'))
                        WHERE space = \(Self.literal(space)) AND collection = \(Self.literal(collection))
                        """))
            try await bumpRevision(tx)
        }
        indexed.withLock { _ = $0?.insert(key(collection, field)) }
    }

    public func put(_ documents: [Document], in collection: String) async throws {
        do {
            try await database.transaction { [self] tx in
                try await insert(documents, in: collection, tx)
                try await bumpRevision(tx)
            }
        } catch let error as PSQLError where error.sqlState == "22P02" {
            throw StoreError("a document of \(collection) is not valid JSON: \(error.serverInfo?[.message] ?? "")")
        }
    }

    @discardableResult
    public func delete(_ id: String, in collection: String) async throws -> Bool {
        try await database.transaction { [self] tx in
            let rows = try await tx.rows("DELETE FROM documents WHERE space = \(space) AND collection = \(collection) AND id = \(id) RETURNING 1")
            if !rows.isEmpty { try await bumpRevision(tx) }
            return !rows.isEmpty
        }
    }

    /// Replaces whole collections in one transaction (a catalog push): readers see the old
    /// documents or the new ones, never a mix.
    public func replace(_ collections: [String: [Document]]) async throws {
        do {
            try await database.transaction { [self] tx in
                for (collection, documents) in collections.sorted(by: { $0.key < $1.key }) {
                    try await tx.run("DELETE FROM documents WHERE space = \(space) AND collection = \(collection)")
                    try await insert(documents, in: collection, tx)
                }
                try await bumpRevision(tx)
            }
        } catch let error as PSQLError where error.sqlState == "22P02" {
            throw StoreError("a document is not valid JSON: \(error.serverInfo?[.message] ?? "")")
        }
    }

    private func insert(_ documents: [Document], in collection: String, _ tx: PostgresPool.Transaction) async throws {
        // The last of several documents with one id wins, as if written one after another.
        var latest: [String: Int] = [:]
        for (i, document) in documents.enumerated() { latest[document.id] = i }
        let unique = documents.enumerated().filter { latest[$0.element.id] == $0.offset }.map(\.element)
        for start in stride(from: 0, to: unique.count, by: 2000) {
            let chunk = unique[start..<min(start + 2000, unique.count)]
            try await tx.run(
                """
                INSERT INTO documents(space, collection, id, body, data)
                SELECT \(space), \(collection), u.id, u.body, u.body::jsonb FROM unnest(\(chunk.map(\.id))::text[], \(chunk.map(\.json))::text[]) AS u(id, body)
                ON CONFLICT (space, collection, id) DO UPDATE SET body = excluded.body, data = excluded.data
                """)
        }
    }

    /// Every write moves the revision, in its own transaction, and tells the other instances
    /// (NOTIFY is delivered at commit, and only if the transaction commits).
    private func bumpRevision(_ tx: PostgresPool.Transaction) async throws {
        try await tx.run(
            """
            INSERT INTO document_revisions(space, generation, revision) VALUES (\(space), md5(random()::text || clock_timestamp()::text), 1)
            ON CONFLICT (space) DO UPDATE SET revision = document_revisions.revision + 1
            """)
        try await tx.run("SELECT pg_notify(\(Self.channel), \("documents:" + space))")
    }

    // MARK: reads

    public func get(_ id: String, in collection: String) async throws -> Document? {
        let rows = try await database.rows("SELECT id, body FROM documents WHERE space = \(space) AND collection = \(collection) AND id = \(id)")
        return try rows.first.map { row in
            let (id, body) = try row.decode((String, String).self)
            return Document(id: id, json: body)
        }
    }

    public func get(_ ids: [String], in collection: String) async throws -> [Document] {
        let rows = try await database.rows("SELECT id, body FROM documents WHERE space = \(space) AND collection = \(collection) AND id = ANY(\(ids))")
        return try rows.map { row in
            let (id, body) = try row.decode((String, String).self)
            return Document(id: id, json: body)
        }
    }

    public func query(_ query: Query) async throws -> [Document] {
        let rows = try await database.rows(try compile(query, select: "d.id, d.body"))
        return try rows.map { row in
            let (id, body) = try row.decode((String, String).self)
            return Document(id: id, json: body)
        }
    }

    public func select(_ fields: [String], matching query: Query) async throws -> [Projection] {
        for field in fields { try FieldPath.check(field) }
        let picks = fields.map { "jsonb_typeof(d.data #> '\(Self.pathArray($0))'), d.data #>> '\(Self.pathArray($0))'" }
        let rows = try await database.rows(try compile(query, select: (["d.id", "d.body"] + picks).joined(separator: ", ")))
        return try rows.map { row in
            let cells = Array(row)
            let id = try cells[0].decode(String.self)
            let body = try cells[1].decode(String.self)
            let values = try (0..<fields.count).map { i in
                Self.fieldValue(type: try cells[2 + 2 * i].decode(String?.self), text: try cells[3 + 2 * i].decode(String?.self))
            }
            return Projection(document: Document(id: id, json: body), values: values)
        }
    }

    public func count(_ query: Query) async throws -> Int {
        var q = query
        q.order = []
        q.limit = nil
        q.offset = 0
        return try await database.rows(try compile(q, select: "count(*)")).first?.decode(Int.self) ?? 0
    }

    public func valueCounts(of field: String, matching query: Query) async throws -> [FieldValue: Int] {
        guard try await indexedFields().contains(key(query.collection, field)) else {
            throw StoreError("valueCounts needs an index on \(query.collection).\(field)")
        }
        var q = query
        q.order = []
        q.limit = nil
        q.offset = 0
        var sql = try compile(
            q, select: "jsonb_typeof(v), v #>> '{}', count(DISTINCT d.id)",
            from: "documents d, jsonb_path_query(d.data, '\(Self.jsonPath(field))[*]') v")
        sql.sql += " AND jsonb_typeof(v) NOT IN ('object', 'array', 'null') GROUP BY 1, 2"
        var out: [FieldValue: Int] = [:]
        for row in try await database.rows(sql) {
            let (type, text, n) = try row.decode((String, String, Int).self)
            if let value = Self.fieldValue(type: type, text: text) { out[value, default: 0] += n }
        }
        return out
    }

    public func revision() async throws -> String {
        let rows = try await database.rows("SELECT generation || '-' || revision FROM document_revisions WHERE space = \(space)")
        return try rows.first?.decode(String.self) ?? "empty-0"
    }

    /// PostgreSQL's plan for a query (EXPLAIN), so tests can see which indexes answer it.
    /// `preferIndexes`: as a large table would be planned (a handful of rows is read whole).
    public func plan(_ query: Query, preferIndexes: Bool = false) async throws -> [String] {
        var q = try compile(query, select: "d.id, d.body")
        q.sql = "EXPLAIN " + q.sql
        let explain = q
        return try await database.transaction { [self] tx in
            if preferIndexes {
                try await tx.run("ANALYZE documents")
                try await tx.run("SET LOCAL enable_seqscan = off")
            }
            return try await tx.rows(explain).map { try $0.decode(String.self) }
        }
    }

    // MARK: query compilation

    private func indexedFields() async throws -> Set<String> {
        if let known = indexed.withLock({ $0 }) { return known }
        let rows = try await database.rows("SELECT collection, field FROM document_fields WHERE space = \(space)")
        let fields = Set(
            try rows.map { row in
                let (c, f) = try row.decode((String, String).self)
                return key(c, f)
            })
        indexed.withLock { $0 = fields }
        return fields
    }

    private func compile(_ query: Query, select: String, from: String = "documents d") throws -> PostgresQuery {
        var sql = "SELECT \(select) FROM \(from) WHERE d.space = $1 AND d.collection = $2"
        var binds = PostgresBindings()
        binds.append(space)
        binds.append(query.collection)
        func bind(_ value: String, as type: String) -> String {
            binds.append(value)
            return "$\(binds.count)::\(type)"
        }
        for filter in query.filters {
            try FieldPath.check(filter.field)
            switch filter {
            case .equal(let f, let v):
                sql += " AND d.data @> " + bind(Self.nested(f, v.json), as: "jsonb")
            case .arrayContains(let f, let v):
                sql += " AND d.data @> " + bind(Self.nested(f, "[\(v.json)]"), as: "jsonb")
            case .prefix(let f, let p):
                // `[*]` takes the elements of an array field and the value of a scalar one.
                sql +=
                    " AND EXISTS (SELECT 1 FROM jsonb_path_query(d.data, '\(Self.jsonPath(f))[*]') v"
                    + " WHERE jsonb_typeof(v) = 'string' AND starts_with(v #>> '{}', " + bind(p, as: "text") + "))"
            case .contains(let f, let s):
                sql +=
                    " AND EXISTS (SELECT 1 FROM jsonb_path_query(d.data, '\(Self.jsonPath(f))[*]') v"
                    + " WHERE jsonb_typeof(v) = 'string' AND strpos(v #>> '{}', " + bind(s, as: "text") + ") > 0)"
            }
        }
        if !query.order.isEmpty {
            let terms = try query.order.map { o -> String in
                try FieldPath.check(o.field)
                return "(d.data #> '\(Self.pathArray(o.field))')\(o.descending ? " DESC" : "")"
            }
            sql += " ORDER BY " + terms.joined(separator: ", ") + ", d.id"
        }
        if let limit = query.limit {
            sql += " LIMIT \(max(0, limit)) OFFSET \(max(0, query.offset))"
        } else if query.offset > 0 {
            sql += " OFFSET \(query.offset)"
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    private func key(_ collection: String, _ field: String) -> String { "\(collection)\u{1}\(field)" }

    /// "owner.city" → {owner,city}, for #> and #>>.
    static func pathArray(_ field: String) -> String { "{" + field.split(separator: ".").joined(separator: ",") + "}" }

    /// "owner.city" → lax $."owner"."city", for jsonpath.
    static func jsonPath(_ field: String) -> String { "lax $" + field.split(separator: ".").map { ".\"\($0)\"" }.joined() }

    /// {"owner":{"city":VALUE}} for "owner.city": what `@>` looks for.
    static func nested(_ field: String, _ json: String) -> String {
        field.split(separator: ".").reversed().reduce(json) { inner, part in "{\"\(part)\":\(inner)}" }
    }

    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// A short stable name part (FNV-1a), for index names.
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A value as the SQLite store reports it: booleans as 1 and 0, objects and arrays as JSON text.
    static func fieldValue(type: String?, text: String?) -> FieldValue? {
        guard let type, let text else { return nil }
        switch type {
        case "string", "object", "array": return .string(text)
        case "number":
            if let n = Int64(text) { return .integer(n) }
            return Double(text).map { .double($0) }
        case "boolean": return .integer(text == "true" ? 1 : 0)
        default: return nil
        }
    }
}

extension FieldValue {
    /// The value as a JSON scalar.
    var json: String {
        switch self {
        case .string(let s): return JSONQuoting.quoted(s)
        case .integer(let n): return String(n)
        case .double(let d): return d.isFinite ? d.description : "null"
        case .bool(let b): return b ? "true" : "false"
        }
    }
}

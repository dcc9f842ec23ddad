import Foundation
import Mandarin
import NIOCore
import Offloading
import PostgresNIO
import PostgresStore
import SQLiteDB

/// What `vocab db push` loaded of the dictionary.
public struct MOEPushSummary: Sendable, Equatable {
    public let entries: Int
    public let heteronyms: Int
    public let definitions: Int

    public init(entries: Int, heteronyms: Int, definitions: Int) {
        self.entries = entries
        self.heteronyms = heteronyms
        self.definitions = definitions
    }
}

extension PostgresMandarinDictionary {
    /// Replaces the database's dictionary with the import at `path` (moe.sqlite), in one
    /// transaction: readers see the old dictionary until it commits, then the new one, never a
    /// mix (DELETE, not TRUNCATE, which would make them wait for the whole load). Rows go in
    /// with COPY, ids kept. The commit notifies the change channel, so every instance drops its
    /// Mandarin answers. `progress` hears one line per table and every 50,000 rows.
    public func push(fromSQLite path: String, progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> MOEPushSummary {
        let source = try await BlockingWork.run { try SQLiteRows(path: path) }
        let tables = [
            Table(name: "entry", plural: "entries", into: "moe_entry", columns: ["id", "title", "radical", "stroke_count", "non_radical_stroke_count"]),
            Table(
                name: "heteronym", plural: "heteronyms", into: "moe_heteronym", columns: ["id", "entry_id", "pinyin", "bopomofo", "pinyin_key", "bopomofo_key"]),
            Table(
                name: "definition", plural: "definitions", into: "moe_definition",
                columns: ["id", "heteronym_id", "type", "def", "example", "quote", "link", "synonyms", "antonyms"]),
        ]
        let counts = try await database.transaction { tx in
            // Two pushes at once: one waits for the other rather than failing on a duplicate id.
            try await tx.run("SELECT pg_advisory_xact_lock(7700116)")
            for table in tables.reversed() { try await tx.run(PostgresQuery(unsafeSQL: "DELETE FROM \(table.into)")) }
            try await tx.run("DELETE FROM moe_dictionary")
            var counts: [Int] = []
            for table in tables {
                let total = try await BlockingWork.run { try source.count(table.name) }
                var copied = 0
                try await tx.connection.copyFrom(table: table.into, columns: table.columns, logger: PostgresPool.silentLogger) { writer in
                    var after: Int64 = 0
                    while true {
                        let chunk = try await BlockingWork.run { [after] in try source.chunk(table, after: after) }
                        guard chunk.rows > 0 else { break }
                        try await writer.write(ByteBuffer(bytes: chunk.text))
                        let before = copied
                        copied += chunk.rows
                        after = chunk.lastID
                        if copied / 50_000 != before / 50_000 { progress("moe: \(table.plural) \(copied)/\(total)") }
                    }
                }
                progress("moe: \(copied) \(table.plural) copied")
                counts.append(copied)
            }
            try await tx.run("INSERT INTO moe_dictionary(entries, heteronyms, definitions) VALUES (\(counts[0]), \(counts[1]), \(counts[2]))")
            try await tx.run("SELECT pg_notify(\(PostgresDocumentStore.channel), \(Self.changePayload))")
            return counts
        }
        // The planner's statistics describe the old rows until the next autovacuum: refresh them now.
        try await database.rows("ANALYZE moe_entry, moe_heteronym, moe_definition")
        return MOEPushSummary(entries: counts[0], heteronyms: counts[1], definitions: counts[2])
    }

    struct Table: Sendable {
        let name: String
        let plural: String
        let into: String
        let columns: [String]
    }
}

/// moe.sqlite read in id order, a chunk at a time, as COPY's text format. One connection for
/// the whole push, used by one task at a time (each chunk runs on a blocking-work thread in
/// turn), so every chunk comes from the same file even if an import replaces it meanwhile.
final class SQLiteRows: @unchecked Sendable {
    private let database: Database

    init(path: String) throws {
        _ = try MOEDictionary(path: path) // not imported, or another version's file: its error
        database = try Database(path: path, mode: .readOnly)
        try database.execute("BEGIN") // one snapshot for all three tables
    }

    deinit { try? database.execute("COMMIT") }

    func count(_ table: String) throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM \(table)")?.intValue ?? 0)
    }

    /// Up to 25,000 rows after `after`, each a line of tab-separated fields (`\N` for NULL).
    func chunk(_ table: PostgresMandarinDictionary.Table, after: Int64) throws -> (text: [UInt8], rows: Int, lastID: Int64) {
        var text: [UInt8] = []
        text.reserveCapacity(1 << 20)
        var rows = 0
        var last = after
        let columns = table.columns
        // Ids, parent ids and stroke counts; the rest is text, copied as its bytes.
        let integers = Set(columns.indices.filter { columns[$0] == "id" || columns[$0].hasSuffix("_id") || columns[$0].hasSuffix("stroke_count") })
        _ = try database.query(
            "SELECT \(columns.joined(separator: ", ")) FROM \(table.name) WHERE id > ? ORDER BY id LIMIT 25000",
            [.integer(after)]
        ) { row in
            for i in 0..<columns.count {
                if i > 0 { text.append(0x09) }
                if row.isNull(i) {
                    text += [0x5C, 0x4E]
                } else if integers.contains(i) {
                    text += Array(String(row.int(i)).utf8)
                } else {
                    Self.escape(row.bytes(i), into: &text)
                }
            }
            text.append(0x0A)
            rows += 1
            last = row.int(0)
        }
        return (text, rows, last)
    }

    /// COPY's text format: backslash, tab, newline and carriage return escaped.
    static func escape(_ bytes: [UInt8], into text: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case 0x5C: text += [0x5C, 0x5C]
            case 0x09: text += [0x5C, 0x74]
            case 0x0A: text += [0x5C, 0x6E]
            case 0x0D: text += [0x5C, 0x72]
            default: text.append(byte)
            }
        }
    }
}

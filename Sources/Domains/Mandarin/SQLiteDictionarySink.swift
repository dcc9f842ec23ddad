import JSONReading
import SQLiteDB

/// Inserts records in batches, binding the input's bytes directly so no String is built for the
/// ~1.5 million values of a full import. Call `finish()` after the last record.
///
/// The helpers are static and take each buffer as its own inout argument: that lets a batch and
/// the scratch buffers, all stored properties, be used together without copying either.
struct SQLiteDictionarySink: DictionarySink {
    private var entries: BatchedInsert
    private var heteronyms: BatchedInsert
    private var definitions: BatchedInsert
    /// Reused for the rare escaped string and for reading keys.
    private var scratch: [UInt8] = []
    private var key: [UInt8] = []

    init(database: Database) throws {
        entries = try BatchedInsert(database: database, table: "entry", columns: MOESchema.entryColumns)
        heteronyms = try BatchedInsert(database: database, table: "heteronym", columns: MOESchema.heteronymColumns)
        definitions = try BatchedInsert(database: database, table: "definition", columns: MOESchema.definitionColumns)
        scratch.reserveCapacity(4096)
        key.reserveCapacity(256)
    }

    mutating func entry(_ record: EntryRecord) throws {
        try entries.bind(record.id, column: 0)
        try Self.bind(record.title, to: &entries, column: 1, scratch: &scratch)
        try Self.bind(record.radical, to: &entries, column: 2, scratch: &scratch)
        try Self.bind(record.strokeCount, to: &entries, column: 3)
        try Self.bind(record.nonRadicalStrokeCount, to: &entries, column: 4)
        try entries.endRow()
    }

    mutating func heteronym(_ record: HeteronymRecord) throws {
        try heteronyms.bind(record.id, column: 0)
        try heteronyms.bind(record.entryID, column: 1)
        try Self.bind(record.pinyin, to: &heteronyms, column: 2, scratch: &scratch)
        try Self.bind(record.bopomofo, to: &heteronyms, column: 3, scratch: &scratch)
        try Self.bindKey(record.pinyin, to: &heteronyms, column: 4, key: &key, scratch: &scratch, ReadingKey.pinyin)
        try Self.bindKey(record.bopomofo, to: &heteronyms, column: 5, key: &key, scratch: &scratch, ReadingKey.bopomofo)
        try heteronyms.endRow()
    }

    mutating func definition(_ record: DefinitionRecord) throws {
        try definitions.bind(record.id, column: 0)
        try definitions.bind(record.heteronymID, column: 1)
        try Self.bind(record.type, to: &definitions, column: 2, scratch: &scratch)
        try Self.bind(record.text, to: &definitions, column: 3, scratch: &scratch)
        try Self.bind(record.examples, to: &definitions, column: 4)
        try Self.bind(record.quotes, to: &definitions, column: 5)
        try Self.bind(record.links, to: &definitions, column: 6)
        try Self.bind(record.synonyms, to: &definitions, column: 7)
        try Self.bind(record.antonyms, to: &definitions, column: 8)
        try definitions.endRow()
    }

    /// Inserts the rows still waiting in partial batches.
    mutating func finish() throws {
        try entries.finish()
        try heteronyms.finish()
        try definitions.finish()
    }

    private static func bind(_ value: JSONString?, to batch: inout BatchedInsert, column: Int, scratch: inout [UInt8]) throws {
        guard let value else { return try batch.bindNull(column: column) }
        try value.withBytes(scratch: &scratch) { try batch.bindText($0, column: column) }
    }

    private static func bind(_ value: Int64?, to batch: inout BatchedInsert, column: Int) throws {
        if let value { try batch.bind(value, column: column) } else { try batch.bindNull(column: column) }
    }

    private static func bind(_ list: JSONList, to batch: inout BatchedInsert, column: Int) throws {
        guard list.count > 0 else { return try batch.bindNull(column: column) }
        try list.bytes.withUnsafeBufferPointer { try batch.bindText($0, column: column) }
    }

    /// Binds the search key of a reading, NULL when it has no letters (an entry without pinyin).
    private static func bindKey(_ value: JSONString?, to batch: inout BatchedInsert, column: Int,
                                key: inout [UInt8], scratch: inout [UInt8],
                                _ makeKey: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void) throws {
        key.removeAll(keepingCapacity: true)
        if let value { value.withBytes(scratch: &scratch) { makeKey($0, &key) } }
        guard !key.isEmpty else { return try batch.bindNull(column: column) }
        try key.withUnsafeBufferPointer { try batch.bindText($0, column: column) }
    }
}

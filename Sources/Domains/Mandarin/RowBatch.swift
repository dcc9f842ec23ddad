import JSONReading

/// The tables the bulk load fills, with the columns it binds.
enum LoadedTable: Sendable {
    case entry, heteronym, definition

    var name: String {
        switch self {
        case .entry: "entry"
        case .heteronym: "heteronym"
        case .definition: "definition"
        }
    }

    var columns: [String] {
        switch self {
        case .entry: MOESchema.entryColumns
        case .heteronym: MOESchema.heteronymColumns
        case .definition: MOESchema.definitionColumns
        }
    }
}

/// One value of a row, by position rather than by pointer so a batch can cross threads as plain
/// data: text is a range of the input (almost every string) or of the batch's own bytes (lists,
/// reading keys, the rare string with escapes).
struct Cell: Sendable {
    enum Kind: UInt8, Sendable { case null, integer, input, own }

    var kind: Kind
    /// The integer, or where the text starts.
    var value: Int64
    var count: Int

    static let null = Cell(kind: .null, value: 0, count: 0)
}

/// Rows of one table on their way from the parsing thread to the inserting one.
///
/// Values that are not slices of the input are appended to `bytes`, which only grows while the
/// batch fills, so a cell names its text by offset and the inserter can bind it in place.
struct RowBatch: Sendable {
    let table: LoadedTable
    var cells: [Cell] = []
    var bytes: [UInt8] = []
    var rows = 0
    /// The id of the first row; the others follow without gaps.
    var firstID: Int64 = 0
    /// The lowest input offset a cell of this batch points at.
    var lowestInput = Int.max
    /// Set when sent: no batch sent later points below this input offset (see BatchingSink).
    var releasableInput = 0
    /// Where the last entry of an entry batch starts, for progress.
    var lastEntryOffset = 0

    init(table: LoadedTable, rows: Int) {
        self.table = table
        cells.reserveCapacity(rows * table.columns.count)
        bytes.reserveCapacity(rows * 64)
    }

    mutating func reset() {
        cells.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        rows = 0
        firstID = 0
        lowestInput = Int.max
        releasableInput = 0
        lastEntryOffset = 0
    }

    @inline(__always)
    mutating func startRow(id: Int64) {
        if rows == 0 { firstID = id }
        rows += 1
    }

    @inline(__always)
    mutating func append(_ value: Int64?) {
        cells.append(value.map { Cell(kind: .integer, value: $0, count: 0) } ?? .null)
    }

    /// A string as stored: the input's own bytes unless escapes must be decoded first.
    @inline(__always)
    mutating func append(_ string: JSONString?, input: UnsafePointer<UInt8>) {
        guard let string else { return cells.append(.null) }
        guard string.hasEscapes else {
            let offset = string.raw.baseAddress.map { input.distance(to: $0) } ?? 0
            lowestInput = min(lowestInput, offset)
            return cells.append(Cell(kind: .input, value: Int64(offset), count: string.raw.count))
        }
        let start = bytes.count
        string.unescape(into: &bytes)
        cells.append(Cell(kind: .own, value: Int64(start), count: bytes.count - start))
    }

    /// A list as its JSON array, NULL when empty.
    @inline(__always)
    mutating func append(_ list: JSONList) {
        guard list.count > 0 else { return cells.append(.null) }
        let start = bytes.count
        bytes.append(contentsOf: list.bytes)
        cells.append(Cell(kind: .own, value: Int64(start), count: bytes.count - start))
    }

    /// The search key of a reading, NULL when it has no letters.
    @inline(__always)
    mutating func appendKey(
        _ reading: JSONString?, scratch: inout [UInt8],
        _ makeKey: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    ) {
        let start = bytes.count
        if let reading { reading.withBytes(scratch: &scratch) { makeKey($0, &bytes) } }
        cells.append(bytes.count > start ? Cell(kind: .own, value: Int64(start), count: bytes.count - start) : .null)
    }
}

/// Turns records into batches of rows and sends each full one to the inserting thread.
///
/// Runs on the parsing thread. It also tells the inserter how much of the input it may drop
/// from memory: when a batch leaves, nothing sent later points below the lowest offset still
/// held by the batches being filled, nor below what the parser has already read past.
struct BatchingSink: DictionarySink {
    private let input: UnsafePointer<UInt8>
    private let queue: BatchQueue
    private let rowsPerBatch: Int
    private var entries: RowBatch
    private var heteronyms: RowBatch
    private var definitions: RowBatch
    /// The furthest input offset any record has reached.
    private var inputRead = 0
    private var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, queue: BatchQueue, rowsPerBatch: Int) {
        // An empty input has no strings to point into; any valid address will do.
        self.input = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.queue = queue
        self.rowsPerBatch = rowsPerBatch
        entries = RowBatch(table: .entry, rows: rowsPerBatch)
        heteronyms = RowBatch(table: .heteronym, rows: rowsPerBatch)
        definitions = RowBatch(table: .definition, rows: rowsPerBatch)
        scratch.reserveCapacity(4096)
    }

    mutating func definition(_ record: DefinitionRecord) throws {
        definitions.startRow(id: record.id)
        definitions.append(record.heteronymID)
        definitions.append(record.type, input: input)
        definitions.append(record.text, input: input)
        definitions.append(record.examples)
        definitions.append(record.quotes)
        definitions.append(record.links)
        definitions.append(record.synonyms)
        definitions.append(record.antonyms)
        note(record.text)
        if definitions.rows == rowsPerBatch { try send(.definition) }
    }

    mutating func heteronym(_ record: HeteronymRecord) throws {
        heteronyms.startRow(id: record.id)
        heteronyms.append(record.entryID)
        heteronyms.append(record.pinyin, input: input)
        heteronyms.append(record.bopomofo, input: input)
        heteronyms.appendKey(record.pinyin, scratch: &scratch, ReadingKey.pinyin)
        heteronyms.appendKey(record.bopomofo, scratch: &scratch, ReadingKey.bopomofo)
        note(record.pinyin)
        if heteronyms.rows == rowsPerBatch { try send(.heteronym) }
    }

    mutating func entry(_ record: EntryRecord) throws {
        entries.startRow(id: record.id)
        entries.append(record.title, input: input)
        entries.append(record.radical, input: input)
        entries.append(record.strokeCount)
        entries.append(record.nonRadicalStrokeCount)
        entries.lastEntryOffset = record.offset
        note(record.title)
        if entries.rows == rowsPerBatch { try send(.entry) }
    }

    /// Sends the partial batches; call once, after the last record.
    mutating func finish() throws {
        // Children first, as in the document; the order between tables does not matter otherwise.
        if definitions.rows > 0 { try send(.definition) }
        if heteronyms.rows > 0 { try send(.heteronym) }
        if entries.rows > 0 { try send(.entry) }
    }

    @inline(__always)
    private mutating func note(_ string: JSONString?) {
        if let end = string?.raw.baseAddress { inputRead = max(inputRead, input.distance(to: end)) }
    }

    private mutating func send(_ table: LoadedTable) throws {
        var releasable = inputRead
        if table != .entry, entries.rows > 0 { releasable = min(releasable, entries.lowestInput) }
        if table != .heteronym, heteronyms.rows > 0 { releasable = min(releasable, heteronyms.lowestInput) }
        if table != .definition, definitions.rows > 0 { releasable = min(releasable, definitions.lowestInput) }
        var batch = queue.spare(for: table) ?? RowBatch(table: table, rows: rowsPerBatch)
        switch table {
        case .entry: swap(&batch, &entries)
        case .heteronym: swap(&batch, &heteronyms)
        case .definition: swap(&batch, &definitions)
        }
        batch.releasableInput = releasable
        try queue.send(batch)
    }
}

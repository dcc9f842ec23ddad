import SQLiteDB

/// Inserts batches of rows, several rows per statement execution, binding every string where
/// it already is (the input or the batch's own bytes) instead of copying it into SQLite first.
///
/// Running a prepared INSERT has a fixed cost (opening a cursor, seeking the table's end,
/// halting) that a bulk import would pay half a million times; a statement with many rows pays
/// it once per group.
///
/// The id column is left out: rows arrive in id order starting at 1, so SQLite's own numbering
/// (the largest rowid plus one) gives every row the id the reader assigned, and appends it
/// without the B-tree search an explicit INTEGER PRIMARY KEY costs (a quarter of the insert
/// time). `sqlite3_last_insert_rowid` checks that after every execution.
struct BatchInserter {
    private let database: Database
    private let input: UnsafePointer<UInt8>
    private let rowsPerStatement: Int
    private var entries: MultiRowInsert
    private var heteronyms: MultiRowInsert
    private var definitions: MultiRowInsert

    /// `input` is the document the batches point into; it must outlive the inserter.
    init(database: Database, input: UnsafeBufferPointer<UInt8>, rowsPerStatement: Int) throws {
        self.database = database
        self.input = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.rowsPerStatement = rowsPerStatement
        entries = try MultiRowInsert(database: database, table: .entry, rows: rowsPerStatement)
        heteronyms = try MultiRowInsert(database: database, table: .heteronym, rows: rowsPerStatement)
        definitions = try MultiRowInsert(database: database, table: .definition, rows: rowsPerStatement)
    }

    mutating func insert(_ batch: RowBatch) throws {
        let columns = batch.table.columns.count
        try batch.cells.withUnsafeBufferPointer { cells in
            try batch.bytes.withUnsafeBufferPointer { bytes in
                // An empty buffer may have no address; no cell points into it then.
                let own = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                var row = 0
                while row < batch.rows {
                    let count = min(rowsPerStatement, batch.rows - row)
                    let values = UnsafeBufferPointer(rebasing: cells[row * columns..<(row + count) * columns])
                    if count == rowsPerStatement {
                        switch batch.table {
                        case .entry: try entries.run(values, input: input, own: own)
                        case .heteronym: try heteronyms.run(values, input: input, own: own)
                        case .definition: try definitions.run(values, input: input, own: own)
                        }
                    } else {
                        // Only the last batch of a table ends with a short group.
                        var last = try MultiRowInsert(database: database, table: batch.table, rows: count)
                        try last.run(values, input: input, own: own)
                    }
                    let lastID = batch.firstID + Int64(row + count - 1)
                    guard database.lastInsertRowID == lastID else {
                        throw MOEError.writeFailed("\(batch.table.name) row \(lastID) was stored as row \(database.lastInsertRowID)")
                    }
                    row += count
                }
            }
        }
    }
}

/// One prepared INSERT of a fixed number of rows.
///
/// A struct, owned by one inserter, so Swift checks exclusive access at compile time rather
/// than on every bind.
private struct MultiRowInsert {
    private let statement: Statement
    /// Which parameters hold NULL already: bindings survive a reset, and most optional columns
    /// are NULL row after row, so re-binding NULL is skipped.
    private var isNull: [Bool]

    init(database: Database, table: LoadedTable, rows: Int) throws {
        let columns = table.columns
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        statement = try database.prepare(
            """
            INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            """)
        isNull = Array(repeating: true, count: columns.count * rows)
    }

    /// Binds one value per parameter, in order, and runs the statement. The text stays where
    /// it is (see `bindTextNoCopy`): the input and the batch outlive the execution.
    mutating func run(_ values: UnsafeBufferPointer<Cell>, input: UnsafePointer<UInt8>, own: UnsafePointer<UInt8>) throws {
        let statement = statement
        try isNull.withUnsafeMutableBufferPointer { isNull in
            for i in 0..<values.count {
                let cell = values[i]
                let parameter = Int32(truncatingIfNeeded: i + 1)
                switch cell.kind {
                case .null:
                    if !isNull[i] {
                        try statement.bindNull(at: parameter)
                        isNull[i] = true
                    }
                    continue
                case .integer:
                    try statement.bind(cell.value, at: parameter)
                case .input:
                    try statement.bindTextNoCopy(input + Int(cell.value), count: cell.count, at: parameter)
                case .own:
                    try statement.bindTextNoCopy(own + Int(cell.value), count: cell.count, at: parameter)
                }
                isNull[i] = false
            }
        }
        try statement.run()
    }
}

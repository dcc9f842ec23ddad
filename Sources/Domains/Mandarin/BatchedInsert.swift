import SQLiteDB

/// Inserts rows into one table several at a time, with one statement execution per group.
///
/// Running a prepared INSERT has a fixed cost (opening a cursor, seeking the table's end,
/// halting) that a bulk import pays half a million times; a statement with many rows pays it
/// once per group, about a third less time overall. The last group is usually short: the rows
/// not used are padded with a NULL first column, which the statement filters out, so no row has
/// to be remembered and re-bound elsewhere.
///
/// A struct, owned by one sink, so Swift checks exclusive access at compile time rather than on
/// every bind.
struct BatchedInsert {
    private let statement: Statement
    private let columns: Int
    private let rowsPerStatement: Int
    private var row = 0
    /// Which parameters hold NULL already: bindings survive a reset, and most optional columns
    /// are NULL row after row, so re-binding NULL is skipped.
    private var isNull: [Bool]

    /// `columns[0]` must be NOT NULL in every real row (it is the id): NULL there marks padding.
    init(database: Database, table: String, columns: [String], rowsPerStatement: Int = 16) throws {
        self.columns = columns.count
        self.rowsPerStatement = rowsPerStatement
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: row, count: rowsPerStatement).joined(separator: ", ")
        statement = try database.prepare("""
            INSERT INTO \(table) (\(columns.joined(separator: ", ")))
            SELECT * FROM (VALUES \(values)) WHERE column1 IS NOT NULL
            """)
        isNull = Array(repeating: true, count: columns.count * rowsPerStatement)
    }

    /// Parameter index of `column` (0-based) in the current row.
    @inline(__always)
    private func parameter(_ column: Int) -> Int { row * columns + column }

    mutating func bind(_ value: Int64, column: Int) throws {
        let p = parameter(column)
        try statement.bind(value, at: Int32(p + 1))
        isNull[p] = false
    }

    mutating func bindText(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) throws {
        let p = parameter(column)
        try statement.bindText(bytes, at: Int32(p + 1))
        isNull[p] = false
    }

    mutating func bindNull(column: Int) throws {
        let p = parameter(column)
        guard !isNull[p] else { return }
        try statement.bindNull(at: Int32(p + 1))
        isNull[p] = true
    }

    /// Ends the current row; runs the statement when the group is full.
    mutating func endRow() throws {
        row += 1
        if row == rowsPerStatement {
            try statement.run()
            row = 0
        }
    }

    /// Inserts the rows of a last, partial group.
    mutating func finish() throws {
        guard row > 0 else { return }
        while row < rowsPerStatement {
            try bindNull(column: 0)
            row += 1
        }
        try statement.run()
        row = 0
    }
}

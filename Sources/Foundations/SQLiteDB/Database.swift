import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error reported by SQLite, with the statement that caused it.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?
    /// The operating system's errno behind an I/O error (0 when there was none): a full disk is
    /// SQLITE_FULL when a write needs a page, but a disk I/O error when the log's index cannot grow.
    public let systemErrno: Int32

    public init(code: Int32, message: String, sql: String?, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// Whether it failed for lack of space: nothing was written, and the same write can succeed
    /// once space is freed.
    public var isDiskFull: Bool {
        // The errno is the connection's latest and may be older than this error: only an I/O error is its own.
        code & 0xFF == SQLITE_FULL || (code & 0xFF == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT))
    }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql.prefix(120)))" }
        return "SQLite error \(code): \(message)"
    }
}

/// A value bound to, or read from, a statement.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// SQLITE_TRANSIENT: SQLite copies bound buffers, so Swift temporaries may die after binding.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not thread-safe by design: an actor or a single task owns it.
public final class Database {
    public enum Mode: Sendable { case readOnly, readWrite, readWriteCreate }

    let handle: OpaquePointer
    public let path: String
    private var statementCache: [String: Statement] = [:]

    /// - Parameter keepLogFiles: whether a database in WAL mode keeps its `-wal` and `-shm` when
    ///   the last connection closes; false for a copy that is renamed into place alone.
    public init(path: String, mode: Mode = .readWriteCreate, keepLogFiles: Bool = true) throws {
        var db: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            let systemErrno = db.map { sqlite3_system_errno($0) } ?? 0
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "\(message): \(path)", sql: nil, systemErrno: systemErrno)
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5000)
        if keepLogFiles {
            // The log and its index stay when the last connection closes. A reader needs the
            // index: the first connection of a process empties it and takes its 32 KiB again, which
            // an index made anew would have to find on a full disk (every command that only read
            // failed there with a disk I/O error). With a size limit, that last connection empties
            // the log once it is copied into the database: a log kept whole would be read again by
            // the next process and written after, growing with every command. 64 MiB: a log that
            // starts again from its beginning is cut to that only when longer, which a server's
            // checkpoints (`LogCheckpointer`) seldom let it become.
            var on: Int32 = 1
            sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
            sqlite3_exec(db, "PRAGMA journal_size_limit = 67108864", nil, nil, nil)
        }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message, sql: sql, systemErrno: sqlite3_system_errno(handle))
        }
    }

    /// A fresh prepared statement.
    public func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw lastError(rc, sql: sql) }
        return Statement(handle: stmt, database: self, sql: sql)
    }

    /// A prepared statement kept for reuse, reset and cleared of bindings.
    public func cached(_ sql: String) throws -> Statement {
        if let stmt = statementCache[sql] {
            stmt.reset()
            return stmt
        }
        let stmt = try prepare(sql)
        statementCache[sql] = stmt
        return stmt
    }

    /// Runs `body` in a transaction that is rolled back if `body` throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Binds `values`, steps through every row and maps each.
    public func query<T>(_ sql: String, _ values: [SQLValue] = [], map: (Row) throws -> T) throws -> [T] {
        let stmt = try cached(sql)
        defer { stmt.reset() }
        try stmt.bind(values)
        var out: [T] = []
        while try stmt.step() { out.append(try map(Row(statement: stmt))) }
        return out
    }

    /// Runs a statement that returns no rows.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws {
        let stmt = try cached(sql)
        defer { stmt.reset() }
        try stmt.bind(values)
        while try stmt.step() {}
    }

    /// The first column of the first row, if any.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try query(sql, values) { $0.value(0) }.first
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }
    /// Whether a transaction is open (SQLite ends one by itself on some I/O errors).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Checkpoints

    /// Frames in the write-ahead log after this connection's latest commit, once
    /// `takeOverCheckpoints()` has been called (nil before its first commit).
    public var logFrames: Int? { logLength.frames }
    private let logLength = LogLength()
    private final class LogLength { var frames: Int? }

    /// Stops this connection checkpointing by itself after its commits (SQLite's default, every
    /// 1,000 frames, inside the COMMIT), so that its owner can decide when and where to copy the
    /// log into the database; from now on `logFrames` follows the log's length.
    public func takeOverCheckpoints() {
        // Installing a WAL hook replaces SQLite's automatic checkpoint, which is such a hook.
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<LogLength>.fromOpaque(context).takeUnretainedValue().frames = Int(frames)
                return SQLITE_OK
            }, Unmanaged.passUnretained(logLength).toOpaque())
    }

    /// Copies the write-ahead log into the database as far as the readers' snapshots allow (a
    /// page a reader still reads from the database is not overwritten), without waiting for the
    /// writer or the readers (a passive checkpoint), and makes what it copied durable.
    /// Returns the log's length and how much of it is now in the database, both in frames;
    /// when they are equal the next write starts the log again from its beginning.
    @discardableResult
    public func checkpoint() throws -> (logFrames: Int, copiedFrames: Int) {
        var log: Int32 = 0
        var copied: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
        // BUSY: another connection is checkpointing; what it copies counts for everyone.
        guard rc == SQLITE_OK || rc == SQLITE_BUSY else { throw lastError(rc, sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        return (Int(max(log, 0)), Int(max(copied, 0)))
    }

    func lastError(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql, systemErrno: sqlite3_system_errno(handle))
    }
}

/// A prepared statement. Belongs to its database's owner, like the database.
public final class Statement {
    @usableFromInline let handle: OpaquePointer
    unowned let database: Database
    let sql: String

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    public func bind(_ values: [SQLValue]) throws {
        for (i, value) in values.enumerated() { try bind(value, at: Int32(i + 1)) }
    }

    public func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, transient)
        case .blob(let v):
            rc = v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
        }
        if rc != SQLITE_OK { throw database.lastError(rc, sql: sql) }
    }

    /// Binds UTF-8 bytes as text without building a String first (bulk imports).
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        let rc: Int32
        if let base = bytes.baseAddress, bytes.count > 0 {
            rc = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), transient)
            }
        } else {
            rc = sqlite3_bind_text(handle, index, "", 0, transient)
        }
        if rc != SQLITE_OK { throw database.lastError(rc, sql: sql) }
    }

    /// Binds UTF-8 bytes as text that SQLite reads in place (SQLITE_STATIC), for bulk loads whose
    /// values already sit in memory: a copy per value is most of the cost of binding. The bytes
    /// must stay valid and unchanged until the statement has been stepped and reset, or the
    /// parameter rebound.
    @inlinable
    public func bindTextNoCopy(_ start: UnsafePointer<UInt8>, count: Int, at index: Int32) throws {
        guard let length = Int32(exactly: count) else { throw bindError(SQLITE_TOOBIG) }
        let rc = sqlite3_bind_text(handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), length, nil)
        if rc != SQLITE_OK { throw bindError(rc) }
    }

    // Inlinable, like the other binds of bulk loads: a call per value across modules costs
    // about as much as SQLite's own work for it.
    @inlinable
    public func bind(_ value: Int64, at index: Int32) throws {
        let rc = sqlite3_bind_int64(handle, index, value)
        if rc != SQLITE_OK { throw bindError(rc) }
    }

    @inlinable
    public func bindNull(at index: Int32) throws {
        let rc = sqlite3_bind_null(handle, index)
        if rc != SQLITE_OK { throw bindError(rc) }
    }

    @usableFromInline
    func bindError(_ rc: Int32) -> SQLiteError {
        rc == SQLITE_TOOBIG ? SQLiteError(code: rc, message: "string or blob too big", sql: sql) : database.lastError(rc, sql: sql)
    }

    /// Advances; true while a row is available.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.lastError(rc, sql: sql)
        }
    }

    /// Steps a statement that returns no rows, then resets it for the next use.
    public func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }
}

/// The current row of a statement, valid until the next step.
public struct Row {
    let statement: Statement
    var handle: OpaquePointer { statement.handle }

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func isNull(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL }
    public func int(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }
    public func double(_ i: Int) -> Double { sqlite3_column_double(handle, Int32(i)) }

    public func text(_ i: Int) -> String? {
        guard let ptr = sqlite3_column_text(handle, Int32(i)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: ptr, count: count), as: UTF8.self)
    }

    public func bytes(_ i: Int) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard count > 0, let ptr = sqlite3_column_blob(handle, Int32(i)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: ptr, count: count))
    }

    public func value(_ i: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(int(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(text(i) ?? "")
        case SQLITE_BLOB: return .blob(bytes(i))
        default: return .null
        }
    }
}

extension SQLValue {
    public var intValue: Int64? { if case .integer(let v) = self { return v } else { return nil } }
    public var textValue: String? { if case .text(let v) = self { return v } else { return nil } }
}

import FileAccess
import JSONReading
import SQLiteDB

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an import did.
public struct ImportSummary: Sendable, Equatable, Encodable {
    public let entries: Int
    public let heteronyms: Int
    public let definitions: Int
    public let seconds: Double
    public let database: String
    public let source: String
}

/// Where a running import is, for a progress display.
public enum ImportProgress: Sendable, Equatable {
    case reading(fraction: Double, entries: Int)
    case indexing
    case finishing
}

/// The input bytes, shared with the parsing thread. `@unchecked Sendable`: they are read-only,
/// and the thread is joined before the memory goes away.
private struct SharedInput: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}

/// Builds moe.sqlite from dict-revised.json.
///
/// The new database is built in a temporary file beside the old one, flushed to disk and renamed
/// over it, so readers see either the previous import or the new one, never a mix; a failed
/// import removes its temporary file and leaves the previous database as it was.
///
/// A file that would empty the dictionary, or cut it to less than half, is refused unless
/// `force` is set: a truncated download or the wrong file should not replace a good import.
public struct MOEImporter {
    public let databasePath: String
    public let force: Bool
    private let progress: ((ImportProgress) -> Void)?

    public init(databasePath: String, force: Bool = false, progress: ((ImportProgress) -> Void)? = nil) {
        self.databasePath = databasePath
        self.force = force
        self.progress = progress
    }

    /// Whether `entries` may replace a dictionary of `previous` entries (nil: none, or one that
    /// cannot be read). Throws the refusal, naming `source`.
    public static func checkSize(entries: Int, previous: Int?, source: String, force: Bool) throws(MOEError) {
        guard !force else { return }
        if entries == 0 { throw .noEntries(file: source) }
        if let previous, entries * 2 < previous { throw .wouldShrink(file: source, entries: entries, previous: previous) }
    }

    public func importFile(at path: String) throws -> ImportSummary {
        let started = ContinuousClock.now
        let file = try MappedFile(path: path)
        // The bytes are only valid while the mapping is: keep it until the import is done.
        return try withExtendedLifetime(file) {
            try importBytes(file.bytes, source: path, started: started, release: { file.release(below: $0) })
        }
    }

    /// Imports a document already in memory; `source` names it in messages.
    public func importJSON(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String,
        started: ContinuousClock.Instant = .now
    ) throws -> ImportSummary {
        try importBytes(bytes, source: source, started: started, release: nil)
    }

    /// `release` is told how much of the input is no longer needed, so a mapped file can give
    /// its pages back as the import moves through it.
    private func importBytes(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, started: ContinuousClock.Instant,
        release: ((Int) -> Void)?
    ) throws -> ImportSummary {
        // Imports killed earlier left their temporaries (their process is gone; a running import is left alone).
        TemporaryFile.removeStale(beside: databasePath, tags: [Self.temporaryTag])
        let temporary = TemporaryFile.path(beside: databasePath, tag: Self.temporaryTag)
        do {
            let counts = try build(bytes, source: source, at: temporary, release: release)
            try Self.checkSize(entries: Int(counts.entries), previous: previousEntries(), source: source, force: force)
            progress?(.finishing)
            try DurableFile.replaceDatabase(databasePath, with: temporary)
            let elapsed = ContinuousClock.now - started
            return ImportSummary(
                entries: Int(counts.entries), heteronyms: Int(counts.heteronyms), definitions: Int(counts.definitions),
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                database: databasePath, source: source)
        } catch {
            DurableFile.removeDatabase(temporary)
            throw Self.translate(error, source: source, bytes: bytes)
        }
    }

    typealias Counts = (entries: Int64, heteronyms: Int64, definitions: Int64)

    /// Rows per INSERT execution, and per batch handed between the threads (a multiple of it).
    static let rowsPerStatement = 64
    static let rowsPerBatch = 1024
    /// Batches waiting for the inserter at most: enough for the parser to run ahead through a
    /// stall of the other thread, a few megabytes with the input they point into.
    static let queueCapacity = 16

    /// Fills a fresh database at `path`. The connection closes when this returns, before the
    /// file is synced and renamed.
    private func build(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, at path: String,
        release: ((Int) -> Void)?
    ) throws -> Counts {
        let database = try Database(path: path, mode: .readWriteCreate)
        // The file is private until renamed, and thrown away on any failure, so SQLite's own
        // crash safety (journal, fsync per commit) would only cost time, and so would zeroing
        // freed space (secure_delete, on in Debian's build): nothing is deleted from a new file.
        //
        // The page cache is small on purpose. Appends only touch the right edge of each B-tree,
        // so a bigger cache saves no work (the same instruction count from 8 to 128 MiB); it
        // only holds pages back until COMMIT, in memory, instead of writing them as the load
        // goes, where the early flush below can send them to disk. 8 MiB keeps the import near
        // 35 MiB resident, where 128 MiB of cache made it 166.
        try database.execute(
            """
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA secure_delete = OFF;
            PRAGMA cache_size = -8192;
            """)
        try database.execute(MOESchema.tables)
        try database.execute(MOESchema.indexesBeforeLoad)
        try database.execute("BEGIN")
        let counts = try load(bytes, into: database, release: release)
        // The tables are in the file by now, all but the last few megabytes written out of the
        // cache during the load: the disk takes them while the CPU builds the last indexes, and
        // the final sync waits for a third of the time it did.
        let flush = Self.flushInBackground(path)
        defer { flush?.join() }
        progress?(.indexing)
        try database.execute(MOESchema.indexesAfterLoad)
        try writeMeta(database, source: source, size: bytes.count, counts: counts)
        try database.execute("PRAGMA user_version = \(MOESchema.version)")
        try database.execute("COMMIT")
        return counts
    }

    /// Parses on a second thread while this one inserts: SQLite is the slower half, and it
    /// never waits for JSON. Rows cross over in batches through a bounded queue.
    private func load(_ bytes: UnsafeBufferPointer<UInt8>, into database: Database, release: ((Int) -> Void)?) throws -> Counts {
        let queue = BatchQueue(capacity: Self.queueCapacity)
        let input = SharedInput(bytes: bytes)
        guard
            let parser = JoinableThread.start({
                var sink = BatchingSink(input: input.bytes, queue: queue, rowsPerBatch: Self.rowsPerBatch)
                var reader = DictionaryReader()
                do {
                    try reader.read(input.bytes, into: &sink)
                    try sink.finish()
                    queue.finish(.finished(entries: reader.entries, heteronyms: reader.heteronyms, definitions: reader.definitions))
                } catch {
                    queue.finish(.failed(error))
                }
            })
        else {
            throw MOEError.writeFailed("cannot start a thread to read the file")
        }
        // The parser reads the input: it must have stopped before this returns and the caller
        // unmaps the file, whatever happened here.
        defer {
            queue.cancel()
            parser.join()
        }
        var inserter = try BatchInserter(database: database, input: bytes, rowsPerStatement: Self.rowsPerStatement)
        let total = Double(max(bytes.count, 1))
        while true {
            switch queue.receive() {
            case .batch(let batch):
                try inserter.insert(batch)
                if batch.table == .entry {
                    progress?(.reading(fraction: Double(batch.lastEntryOffset) / total, entries: Int(batch.firstID) + batch.rows - 1))
                }
                release?(batch.releasableInput)
                queue.recycle(batch)
            case .finished(let entries, let heteronyms, let definitions):
                return (entries, heteronyms, definitions)
            case .failed(let error):
                throw error
            }
        }
    }

    private func writeMeta(_ database: Database, source: String, size: Int, counts: Counts) throws {
        let values: [(String, String)] = [
            ("source", Self.fileName(source)),
            ("source_bytes", String(size)),
            ("imported_at", Date().formatted(.iso8601)),
            ("entries", String(counts.entries)),
            ("heteronyms", String(counts.heteronyms)),
            ("definitions", String(counts.definitions)),
        ]
        for (key, value) in values {
            try database.run("INSERT INTO meta (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    /// The last component of a path ("dict-revised.json"), trailing slashes aside.
    static func fileName(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/"), path.count > 1 else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// The new database is built beside the target as `moe.sqlite.importing-<pid>-<random>`.
    static let temporaryTag = "importing"

    /// The entries of the dictionary in place, from its summary; nil when there is none or it
    /// cannot be read (then there is nothing worth keeping).
    private func previousEntries() -> Int? {
        guard access(databasePath, F_OK) == 0,
            let database = try? Database(path: databasePath, mode: .readOnly),
            let value = try? database.scalar("SELECT value FROM meta WHERE key = 'entries'")?.textValue
        else { return nil }
        return Int(value)
    }

    /// Turns byte offsets into line and column, and storage failures into one message.
    static func translate(_ error: Error, source: String, bytes: UnsafeBufferPointer<UInt8>) -> Error {
        switch error {
        case let e as JSONError:
            let position = SourcePosition(offset: e.offset, in: bytes)
            var message = e.message
            if e.offset == 0, let hint = compressionHint(bytes) { message += " (\(hint))" }
            return e.kind == .syntax
                ? MOEError.invalidJSON(file: source, message: message, position: position)
                : MOEError.unexpectedShape(file: source, message: message, position: position)
        case let e as SQLiteError:
            return e.isDiskFull ? MOEError.noSpace : MOEError.writeFailed(e.description)
        case let e as FileError:
            return e.isDiskFull ? MOEError.noSpace : MOEError.writeFailed(e.description)
        default:
            return error
        }
    }

    /// Starts writing what is already in `path` to disk, on a thread of its own, so the final
    /// flush has less left to wait for. Only a head start: errors are left for that flush to report.
    static func flushInBackground(_ path: String) -> JoinableThread? {
        JoinableThread.start {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = fdatasync(fd)
            close(fd)
        }
    }

    /// Recognises the compressed downloads people pass by mistake.
    private static func compressionHint(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A]) { return "this is an xz file: decompress it first with 'xz -dk'" }
        if bytes.starts(with: [0x1F, 0x8B]) { return "this is a gzip file: decompress it first with 'gunzip -k'" }
        return nil
    }
}

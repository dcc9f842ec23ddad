import JSONReading
import Foundation
import SQLiteDB

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

/// Builds moe.sqlite from dict-revised.json.
///
/// The new database is built in a temporary file beside the old one, flushed to disk and renamed
/// over it, so readers see either the previous import or the new one, never a mix; a failed
/// import removes its temporary file and leaves the previous database as it was.
public struct MOEImporter {
    public let databasePath: String
    private let progress: ((ImportProgress) -> Void)?

    public init(databasePath: String, progress: ((ImportProgress) -> Void)? = nil) {
        self.databasePath = databasePath
        self.progress = progress
    }

    public func importFile(at path: String) throws -> ImportSummary {
        let started = ContinuousClock.now
        let file = try MappedFile(path: path)
        // The bytes are only valid while the mapping is: keep it until the import is done.
        return try withExtendedLifetime(file) { try importJSON(file.bytes, source: path, started: started) }
    }

    /// Imports a document already in memory; `source` names it in messages.
    public func importJSON(_ bytes: UnsafeBufferPointer<UInt8>, source: String,
                           started: ContinuousClock.Instant = .now) throws -> ImportSummary {
        let temporary = temporaryPath()
        do {
            let counts = try build(bytes, source: source, at: temporary)
            progress?(.finishing)
            try Durable.sync(temporary)
            try Durable.replace(databasePath, with: temporary)
            let elapsed = ContinuousClock.now - started
            return ImportSummary(
                entries: Int(counts.entries), heteronyms: Int(counts.heteronyms), definitions: Int(counts.definitions),
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                database: databasePath, source: source)
        } catch {
            Durable.remove(temporary)
            throw Self.translate(error, source: source, bytes: bytes)
        }
    }

    /// Fills a fresh database at `path`. The connection closes when this returns, before the
    /// file is synced and renamed.
    private func build(_ bytes: UnsafeBufferPointer<UInt8>, source: String, at path: String) throws -> (entries: Int64, heteronyms: Int64, definitions: Int64) {
        let database = try Database(path: path, mode: .readWriteCreate)
        // The file is private until renamed, and thrown away on any failure, so SQLite's own
        // crash safety (journal, fsync per commit) would only cost time.
        try database.execute("""
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -131072;
            """)
        try database.execute(MOESchema.tables)
        try database.execute("BEGIN")
        var sink = try SQLiteDictionarySink(database: database)
        let total = max(bytes.count, 1)
        var reader = DictionaryReader { [progress] bytesRead, entries in
            progress?(.reading(fraction: Double(bytesRead) / Double(total), entries: Int(entries)))
        }
        try reader.read(bytes, into: &sink)
        try sink.finish()
        progress?(.indexing)
        try database.execute(MOESchema.indexes)
        try writeMeta(database, source: source, size: bytes.count, reader: reader)
        try database.execute("PRAGMA user_version = \(MOESchema.version)")
        try database.execute("COMMIT")
        return (reader.entries, reader.heteronyms, reader.definitions)
    }

    private func writeMeta(_ database: Database, source: String, size: Int, reader: DictionaryReader) throws {
        let values: [(String, String)] = [
            ("source", (source as NSString).lastPathComponent),
            ("source_bytes", String(size)),
            ("imported_at", ISO8601DateFormatter().string(from: Date())),
            ("entries", String(reader.entries)),
            ("heteronyms", String(reader.heteronyms)),
            ("definitions", String(reader.definitions)),
        ]
        for (key, value) in values {
            try database.run("INSERT INTO meta (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    /// Beside the target, so the final rename stays within one file system.
    private func temporaryPath() -> String {
        "\(databasePath).importing-\(getpid())-\(UUID().uuidString.prefix(8))"
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
            return MOEError.writeFailed(e.description)
        default:
            return error
        }
    }

    /// Recognises the compressed downloads people pass by mistake.
    private static func compressionHint(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A]) { return "this is an xz file: decompress it first with 'xz -dk'" }
        if bytes.starts(with: [0x1F, 0x8B]) { return "this is a gzip file: decompress it first with 'gunzip -k'" }
        return nil
    }
}

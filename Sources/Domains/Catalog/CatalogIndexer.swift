#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Store

/// Keeps the catalog database in step with `Categories/`.
///
/// The database is only ever replaced whole: it is built in a temporary file next to the
/// target and renamed over it, so an interrupted build leaves the previous database intact.
public struct CatalogIndexer: Sendable {
    public enum Status: Sendable, Equatable {
        case upToDate
        case rebuilt(reason: String, categories: Int, words: Int)
    }

    /// Bumped when the stored layout changes, to force a rebuild of older databases.
    static let schemaVersion = 2

    public let source: CatalogSource
    public let databasePath: String

    public init(source: CatalogSource, databasePath: String) {
        self.source = source
        self.databasePath = databasePath
    }

    struct State: Codable {
        var fingerprint: String
        var contentHash: String
        var schemaVersion: Int
        var builtAt: Date
    }

    /// Opens the catalog store, rebuilding it first if the JSON changed (or `force`).
    public func open(force: Bool = false) async throws -> (store: SQLiteDocumentStore, status: Status) {
        let fingerprint = try source.fingerprint()
        let exists = FileManager.default.fileExists(atPath: databasePath)
        var previous: State?
        if exists, !force {
            let store = try SQLiteDocumentStore(path: databasePath, readOnly: true)
            // A projection, not JSONDecoder: this check runs before every command.
            let stamp = try? await store.select(["fingerprint", "schemaVersion"], matching: Query("_catalog")).first
            if let stamp, stamp.string(0) == fingerprint, stamp.integer(1) == Self.schemaVersion {
                return (store, .upToDate)
            }
            previous = stamp.flatMap { try? $0.document.decode(State.self) }
        }
        let files = try source.read()
        let hash = CatalogSource.contentHash(files)
        if let previous, previous.contentHash == hash, previous.schemaVersion == Self.schemaVersion {
            // Touched but unchanged: remember the new stamps so the next run skips the read.
            let store = try SQLiteDocumentStore(path: databasePath)
            var state = previous
            state.fingerprint = fingerprint
            try await store.put([Document(id: "state", encoding: state)], in: "_catalog")
            return (try SQLiteDocumentStore(path: databasePath, readOnly: true), .upToDate)
        }
        let (decoded, issues) = CatalogValidator().validate(files)
        if !issues.isEmpty { throw CatalogError.invalidData(issues) }
        let reason = force ? "forced" : !exists ? "first use" : previous == nil ? "unreadable database" : "category data changed"
        try await build(decoded, state: State(fingerprint: fingerprint, contentHash: hash, schemaVersion: Self.schemaVersion, builtAt: Date()))
        let wordCount = decoded.reduce(0) { $0 + $1.words.count }
        return (try SQLiteDocumentStore(path: databasePath, readOnly: true),
                .rebuilt(reason: reason, categories: decoded.count, words: wordCount))
    }

    private func build(_ files: [CategoryFile], state: State) async throws {
        try FileManager.default.createDirectory(atPath: FilePath.directory(of: databasePath), withIntermediateDirectories: true)
        let temporary = "\(databasePath).building-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try await fill(temporary, files: files, state: state)
            try FilePath.synchronize(temporary)
            try FilePath.rename(temporary, to: databasePath)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Separate function so the store (and its connection) is closed before the rename.
    private func fill(_ path: String, files: [CategoryFile], state: State) async throws {
        let store = try SQLiteDocumentStore(path: path, durable: false)
        for field in ["categories", "levels", "word", "sort", "keys"] {
            try await store.ensureIndex(on: field, in: CatalogService.words)
        }
        try await store.ensureIndex(on: "order", in: CatalogService.categories)
        try await store.put(try files.map { try Document(id: $0.id, encoding: $0.category) }, in: CatalogService.categories)
        var documents: [Document] = []
        for file in files {
            for word in file.words {
                let stored = StoredWord(word: word)
                documents.append(try Document(id: stored.id, encoding: stored))
            }
        }
        try await store.put(documents, in: CatalogService.words)
        try await store.put([Document(id: "state", encoding: state)], in: "_catalog")
    }
}

/// A word as stored: the source fields plus what queries need (id, sort key, search keys).
struct StoredWord: Encodable {
    let word: Word

    var id: String { "\(word.categories.first ?? "")/\(Self.slug(word.word))" }

    static func slug(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// Lower-cased headword and translation, and the translation without Vietnamese diacritics,
    /// so 'meo' finds 'con mèo'.
    var keys: [String] {
        var keys = [word.word.lowercased()]
        let vi = word.vi.lowercased()
        keys.append(vi)
        let folded = SearchText.fold(vi)
        if folded != vi { keys.append(folded) }
        return keys
    }

    enum Extra: String, CodingKey { case id, sort, keys }

    func encode(to encoder: Encoder) throws {
        try word.encode(to: encoder)
        var c = encoder.container(keyedBy: Extra.self)
        try c.encode(id, forKey: .id)
        try c.encode(word.word.lowercased(), forKey: .sort)
        try c.encode(keys, forKey: .keys)
    }
}

import FileAccess
import SQLiteDB
import Store
import TextMatching

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keeps the catalog database in step with `Categories/`.
///
/// The database is written once, in a temporary file beside the target with no journal, then
/// renamed over the old one: readers see the previous catalog or the new one, never a mix, and
/// no write-ahead log is ever left beside it (a stale `-wal` applied to a renamed database
/// corrupts it). What the database was built from lives in a small state file beside it
/// (`catalog.state`), so noticing that files were touched but not changed rewrites that file,
/// not the database.
public struct CatalogIndexer: Sendable {
    public enum Status: Sendable, Equatable {
        case upToDate
        case rebuilt(reason: String, categories: Int, words: Int)
        /// The category files have problems; the last good catalog is served until they are fixed.
        case stale(issues: [ValidationIssue])
        /// The category files changed but the disk has no room for the new catalog; the last good
        /// one is served until there is.
        case noRoomToRebuild
    }

    /// The layout of catalog.sqlite, in its `user_version`: bump it when the stored documents or
    /// indexes change, and older files are rebuilt.
    public static let migrator = Migrator(
        file: "catalog.sqlite",
        steps: [
            Migrator.Step(3, "documents with search keys; build state beside the file") { _ in },
            Migrator.Step(4, "words indexed by the ids they had before a split (formerly)") { _ in },
        ])

    /// The fields catalog queries filter and order by, in every engine that holds the catalog.
    public static let indexedFields: [(collection: String, field: String)] =
        ["categories", "levels", "word", "sort", "keys", "formerly"].map { (CatalogService.words, $0) } + [(CatalogService.categories, "order")]

    public let source: CatalogSource
    public let databasePath: String
    public var statePath: String { databasePath.hasSuffix(".sqlite") ? String(databasePath.dropLast(7)) + ".state" : databasePath + ".state" }

    public init(source: CatalogSource, databasePath: String) {
        self.source = source
        self.databasePath = databasePath
    }

    /// Opens the catalog store, rebuilding it first if the JSON changed (or `force`). Invalid
    /// category files throw when forced or when there is no earlier catalog; otherwise the
    /// earlier catalog is opened and the problems come back in `.stale`.
    public func open(force: Bool = false) async throws -> (store: SQLiteDocumentStore, status: Status) {
        let fingerprint = try source.fingerprint()
        let current = force ? nil : await currentDatabase()
        let state = current == nil ? nil : CatalogState.read(statePath)
        if let current, state?.fingerprint == fingerprint { return (current, .upToDate) }

        let (files, unreadable) = try source.read()
        let hash = CatalogSource.contentHash(files) + (unreadable.isEmpty ? "" : "+" + unreadable.map(\.file).joined(separator: ","))
        if let current, let state, state.contentHash == hash {
            // Touched but unchanged: remember the new stamps so the next run skips the read.
            try? CatalogState(fingerprint: fingerprint, contentHash: hash).write(statePath)
            return (current, .upToDate)
        }
        let (decoded, found) = CatalogValidator().validate(files)
        let issues = unreadable + found
        if !issues.isEmpty {
            if let current { return (current, .stale(issues: issues)) }
            throw CatalogError.invalidData(issues)
        }
        let reason =
            force
            ? "forced"
            : !DurableFile.exists(databasePath)
                ? "first use"
                : await currentDatabase() == nil ? "older or unreadable database" : "category data changed"
        do {
            try await build(decoded)
        } catch  where Self.isDiskFull(error) {
            // The build is removed and the old file was never touched: it is still whole.
            if let current, !force { return (current, .noRoomToRebuild) }
            throw error
        }
        do {
            try CatalogState(fingerprint: fingerprint, contentHash: hash).write(statePath)
        } catch  where Self.isDiskFull(error) {
            // The new catalog is in place; without its state the next command compares the
            // files' bytes again and, finding them changed, rebuilds once more when there is room.
        }
        let wordCount = decoded.reduce(0) { $0 + $1.words.count }
        return (
            try SQLiteDocumentStore(path: databasePath, readOnly: true),
            .rebuilt(reason: reason, categories: decoded.count, words: wordCount)
        )
    }

    static func isDiskFull(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.isDiskFull == true || (error as? FileError)?.isDiskFull == true
    }

    /// The existing database, if there is one at the current layout version.
    private func currentDatabase() async -> SQLiteDocumentStore? {
        guard DurableFile.exists(databasePath), let store = try? SQLiteDocumentStore(path: databasePath, readOnly: true),
            (try? await store.schemaVersion()) == Self.migrator.latest
        else { return nil }
        return store
    }

    private func build(_ files: [CategoryFile]) async throws {
        try DurableFile.createDirectory(DurableFile.directory(of: databasePath))
        // Builds and state files of killed runs (their process is gone; a running build is left alone).
        TemporaryFile.removeStale(beside: databasePath, tags: ["building"])
        TemporaryFile.removeStale(beside: statePath, tags: ["writing"])
        let temporary = TemporaryFile.path(beside: databasePath, tag: "building")
        do {
            try await fill(temporary, files: files)
            try DurableFile.replaceDatabase(databasePath, with: temporary)
        } catch {
            DurableFile.removeDatabase(temporary)
            throw error
        }
    }

    /// Separate function so the store (and its connection) is closed before the rename.
    private func fill(_ path: String, files: [CategoryFile]) async throws {
        let store = try SQLiteDocumentStore(path: path, durable: false)
        for (collection, field) in Self.indexedFields { try await store.ensureIndex(on: field, in: collection) }
        try await store.put(try files.map { try Document(id: $0.id, encoding: $0.category) }, in: CatalogService.categories)
        var documents: [Document] = []
        for file in files {
            for word in file.words {
                let stored = StoredWord(word: word)
                documents.append(try Document(id: stored.id, encoding: stored))
            }
        }
        try await store.put(documents, in: CatalogService.words)
        try await store.stampVersion(Self.migrator)
    }
}

/// What the catalog database was built from: the cheap fingerprint of the files (names, sizes,
/// times) and the hash of their bytes. Plain lines, read before every catalog command.
struct CatalogState: Equatable {
    static let header = "vocab catalog state 1"
    var fingerprint: String
    var contentHash: String

    static func read(_ path: String) -> CatalogState? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == header else { return nil }
        return CatalogState(fingerprint: String(lines[1]), contentHash: String(lines[2]))
    }

    func write(_ path: String) throws {
        try DurableFile.write(Array("\(Self.header)\n\(fingerprint)\n\(contentHash)\n".utf8), to: path, durable: false)
    }
}

/// A word as stored: the source fields plus what queries need (id, sort key, search keys).
struct StoredWord: Encodable {
    let word: Word

    var id: String { word.id }

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

    enum Extra: String, CodingKey { case sort, keys }

    /// The entry (its id included) and what the catalog's queries sort and look up by.
    func encode(to encoder: Encoder) throws {
        try word.encode(to: encoder)
        var c = encoder.container(keyedBy: Extra.self)
        try c.encode(word.word.lowercased(), forKey: .sort)
        try c.encode(keys, forKey: .keys)
    }
}

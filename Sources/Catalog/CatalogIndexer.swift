import Foundation
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
        let directory = (databasePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = "\(databasePath).building-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            try await fill(temporary, files: files, state: state)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, databasePath) == 0 else {
                throw StoreError("cannot move \(temporary) to \(databasePath): \(String(cString: strerror(errno)))")
            }
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

public enum SearchText {
    /// Lower case without diacritics (đ becomes d), for accent-insensitive matching.
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if scalar == "đ" { out.append("d") } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Levenshtein distance, for "did you mean" suggestions.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The candidates closest to `text`: containing it, or within a few edits, best first.
    public static func closest(to text: String, in candidates: [String], limit: Int = 3) -> [String] {
        let needle = fold(text)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let c = fold(candidate)
            if c.hasPrefix(needle) || needle.hasPrefix(c) { return (candidate, 0) }
            if c.contains(needle) { return (candidate, 1) }
            let d = distance(needle, c)
            return d <= max(2, needle.count / 3) ? (candidate, 1 + d) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }
}

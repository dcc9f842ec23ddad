import Cache
import JSONReading
import Store
import TextMatching

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

public struct CategorySummary: Codable, Sendable, Hashable {
    public var category: Category
    /// Words in the category (at the level asked for, if any).
    public var wordCount: Int
    /// Words per level, counting a word at every level it belongs to.
    public var levelCounts: [String: Int]
}

/// A word with its id in the catalog (`animals/cat`): the identity clips and saved items use.
public struct CatalogEntry: Sendable, Hashable {
    public var id: String
    public var word: Word

    public var reference: EntryReference { EntryReference(.catalog, id) }
}

/// A word as a cross-source search reads it: what it matches on and what a result shows.
public struct SearchableWord: Sendable, Hashable {
    public var id: String
    public var word: String
    public var vi: String
    /// The English definition.
    public var definition: String
    public var britishIPA: String
    /// Which sense, where the headword has several entries.
    public var sense: LocalizedText?
    public var picture: String?

    public var reference: EntryReference { EntryReference(.catalog, id) }
}

/// A word as listings show it, with its full stored JSON alongside for whoever needs more.
public struct WordRow: Sendable, Hashable {
    public var id: String
    public var word: String
    public var britishIPA: String
    public var vi: String
    public var json: String

    public func decode() throws -> Word { try Document(id: id, json: json).decode(Word.self) }

    /// The headword as a listing shows it (`Word.label`), its sense read from the row's JSON by
    /// the byte reader: a JSONDecoder's first use cost the launcher's whole page more than its
    /// query did. Only rows with a sense are read at all.
    public var label: String {
        guard json.containsBytes(#""sense""#) else { return word }
        var text = json
        let sense: String? = text.withUTF8 { bytes in
            var reader = JSONReader(bytes)
            var english: String?
            try? reader.forEachMember { reader, key in
                guard key.equals("sense"), try reader.peek() == .object else { return try reader.skipValue() }
                try reader.forEachMember { reader, key in
                    if key.equals("en"), try reader.peek() == .string { english = try reader.readString().string } else { try reader.skipValue() }
                }
            }
            return english
        }
        return Word.label(word, senseInEnglish: sense)
    }
}

public struct WordPage: Sendable {
    public var category: Category
    public var level: Level?
    public var total: Int
    public var offset: Int
    public var limit: Int
    /// The page's words as listed: enough to print a listing without decoding any JSON.
    public var rows: [WordRow]
    /// How the (category, level) result was served, when a cache is in use.
    public var cache: CacheOutcome?

    /// The page's words in full (decoded from their JSON).
    public var words: [Word] { rows.compactMap { try? $0.decode() } }
}

/// The catalog's queries, as the app asks them, over any document store.
public struct CatalogService: Sendable {
    public static let words = "words"
    public static let categories = "categories"
    public static let defaultPageSize = 200
    public static let defaultSearchLimit = 30

    let store: any DocumentStore
    let cache: QueryCache?

    public init(store: any DocumentStore, cache: QueryCache? = nil) {
        self.store = store
        self.cache = cache
    }

    /// Read through a projection rather than JSONDecoder: this runs on every command, and
    /// Codable's first use in a process costs more than the query.
    public func categories() async throws -> [Category] {
        let rows = try await store.select(["id", "name.en", "name.vi", "icon", "color", "order"], matching: Query(Self.categories).ordered(by: "order"))
        return rows.map { r in
            Category(
                id: r.string(0) ?? r.document.id, name: LocalizedText(en: r.string(1) ?? "", vi: r.string(2) ?? ""),
                icon: r.string(3) ?? "", color: r.string(4) ?? "", order: r.integer(5) ?? 0)
        }
    }

    public func summaries(level: Level? = nil) async throws -> [CategorySummary] {
        try await summaries(of: try await categories(), level: level)
    }

    private func summaries(of categories: [Category], level: Level?) async throws -> [CategorySummary] {
        var query = Query(Self.words)
        if let level { query = query.filter(.arrayContains("levels", .string(level.rawValue))) }
        let totals = try await store.valueCounts(of: "categories", matching: query)
        var perLevel: [Level: [FieldValue: Int]] = [:]
        for l in Level.allCases {
            perLevel[l] = try await store.valueCounts(of: "categories", matching: Query(Self.words).filter(.arrayContains("levels", .string(l.rawValue))))
        }
        return categories.map { c in
            let key = FieldValue.string(c.id)
            var levels: [String: Int] = [:]
            for l in Level.allCases where level == nil || level == l { levels[l.rawValue] = perLevel[l]?[key] ?? 0 }
            return CategorySummary(category: c, wordCount: totals[key] ?? 0, levelCounts: levels)
        }
    }

    /// What `vocab categories` shows: every category with its counts, and the number of distinct
    /// words, at a level or at all. The counts take four grouped queries (~15 ms), so they are
    /// cached like a word listing, under the key ("categories", level).
    public func overview(level: Level? = nil) async throws -> CatalogOverview {
        let categories = try await categories()
        guard let cache else {
            return CatalogOverview(summaries: try await summaries(of: categories, level: level), wordCount: try await wordCount(level: level), cache: nil)
        }
        let key = "categories|\(level?.rawValue ?? "*")"
        let token = try await store.revision()
        let (payload, outcome) = try await cache.value(for: key, revision: token) { [self] in
            CountCoding.encode(try await summaries(of: categories, level: level), wordCount: try await wordCount(level: level))
        }
        let counts = try CountCoding.decode(payload)
        let rows = categories.map { c in
            let entry = counts.byCategory[c.id]
            return CategorySummary(category: c, wordCount: entry?.total ?? 0, levelCounts: entry?.levels ?? [:])
        }
        return CatalogOverview(summaries: rows, wordCount: counts.wordCount, cache: outcome)
    }

    /// Distinct words in the catalog (at a level): a word listed under two categories counts once.
    public func wordCount(level: Level? = nil) async throws -> Int {
        var query = Query(Self.words)
        if let level { query = query.filter(.arrayContains("levels", .string(level.rawValue))) }
        return try await store.count(query)
    }

    /// A category by id or English name, case-insensitively; unknown names get suggestions.
    public func category(named name: String) async throws -> Category {
        let all = try await categories()
        let needle = name.lowercased()
        if let hit = all.first(where: { $0.id == needle || $0.name.en.lowercased() == needle }) { return hit }
        let suggestions = SearchText.closest(to: needle, in: all.map(\.id))
        throw CatalogError.unknownCategory(name, suggestions: suggestions)
    }

    /// Words of a category at a level, in alphabetical order, a page at a time. The full
    /// (category, level) result is what is cached; pages are cut from it.
    public func words(in categoryName: String, level: Level?, limit: Int = defaultPageSize, offset: Int = 0) async throws -> WordPage {
        let category = try await category(named: categoryName)
        var query = Query(Self.words, filters: [.arrayContains("categories", .string(category.id))], order: [Ordering("sort")])
        if let level { query = query.filter(.arrayContains("levels", .string(level.rawValue))) }
        let payload: [UInt8]
        var outcome: CacheOutcome?
        let store = self.store
        let listing = query
        let compute: @Sendable () async throws -> [UInt8] = {
            RowCoding.encode(
                try await store.select(["word", "ipa.british", "vi"], matching: listing).map { p in
                    WordRow(id: p.document.id, word: p.string(0) ?? "", britishIPA: p.string(1) ?? "", vi: p.string(2) ?? "", json: p.document.json)
                })
        }
        if let cache {
            let key = "\(category.id)|\(level?.rawValue ?? "*")"
            // Payload formats are versioned with the cache file itself (SQLiteCacheStorage.migrator).
            let token = try await store.revision()
            (payload, outcome) = try await cache.value(for: key, revision: token, compute: compute)
        } else {
            payload = try await compute()
        }
        let all = try RowCoding.decode(payload)
        let start = min(max(0, offset), all.count)
        let end = min(all.count, start + max(0, limit))
        return WordPage(
            category: category, level: level, total: all.count, offset: start, limit: limit,
            rows: Array(all[start..<end]), cache: outcome)
    }

    /// Every entry with this headword: homographs (`bat` the animal, `bat` for sports) are two.
    public func lookup(_ headword: String) async throws -> [Word] {
        try await entries(for: headword).map(\.word)
    }

    /// The entries of a headword with their ids (`animals/bat`), in id order. Throws
    /// `unknownWord` with close headwords when there is none.
    public func entries(for headword: String) async throws -> [CatalogEntry] {
        let text = headword.trimmingWhitespace
        let exact = try await store.query(Query(Self.words, filters: [.equal("word", .string(text))], order: [Ordering("id")]))
        if !exact.isEmpty { return try exact.map { CatalogEntry(id: $0.id, word: try $0.decode(Word.self)) } }
        let folded = try await store.query(Query(Self.words, filters: [.arrayContains("keys", .string(text.lowercased()))], order: [Ordering("id")]))
        if !folded.isEmpty { return try folded.map { CatalogEntry(id: $0.id, word: try $0.decode(Word.self)) } }
        // Only the headwords: decoding whole words here cost ~25 ms per unknown word.
        let nearby = try await store.select(["word"], matching: Query(Self.words, filters: [.prefix("keys", String(text.lowercased().prefix(1)))]))
        let headwords = nearby.compactMap { $0.string(0) }
        throw CatalogError.unknownWord(headword, suggestions: SearchText.closest(to: text, in: Array(Set(headwords))))
    }

    /// One entry by id, if the catalog has it.
    public func entry(id: String) async throws -> CatalogEntry? {
        try await store.get(id, in: Self.words).map { CatalogEntry(id: $0.id, word: try $0.decode(Word.self)) }
    }

    /// Every entry's headword and transcriptions (British, American), by id: what a learner's
    /// attempt at a word is judged against. Read as projections, nothing decoded from JSON.
    public func transcriptions() async throws -> [(id: String, word: String, british: String, american: String)] {
        try await store.select(["word", "ipa.british", "ipa.american"], matching: Query(Self.words, order: [Ordering("id")])).map {
            (id: $0.document.id, word: $0.string(0) ?? "", british: $0.string(1) ?? "", american: $0.string(2) ?? "")
        }
    }

    /// The ids entries had before a split, with the id each now is (`places-and-directions/right`
    /// → `school/right`). Few: read when a library or a class is, to follow saved words along.
    public func moves() async throws -> [String: String] {
        var moves: [String: String] = [:]
        for document in try await store.query(Query(Self.words, filters: [.prefix("formerly", "")])) {
            for id in try document.decode(Word.self).formerly ?? [] { moves[id] = document.id }
        }
        return moves
    }

    /// Headwords that start with the text, then translations that do, then those containing it.
    public func search(_ text: String, limit: Int = defaultSearchLimit) async throws -> [Word] {
        let needle = text.trimmingWhitespace.lowercased()
        guard !needle.isEmpty, limit > 0 else { return [] }
        let folded = SearchText.fold(needle)
        var seen: Set<String> = []
        var out: [Word] = []
        // Headword matches rank above translation matches; starts rank above insides.
        let queries: [Filter] = [
            .prefix("sort", needle), .prefix("keys", needle), .prefix("keys", folded),
            .contains("sort", needle), .contains("keys", needle), .contains("keys", folded),
        ]
        for filter in queries where out.count < limit {
            for doc in try await store.query(Query(Self.words, filters: [filter], order: [Ordering("sort")], limit: limit)) {
                guard out.count < limit, seen.insert(doc.id).inserted else { continue }
                out.append(try doc.decode(Word.self))
            }
        }
        return out
    }

    /// The words a cross-source search may show for `text`: those whose headword or translation
    /// contains it (typed or without Vietnamese diacritics) or whose English definition does.
    /// Unranked, by id; read as projections, so nothing is decoded from JSON.
    public func searchCandidates(_ text: String) async throws -> [SearchableWord] {
        let needle = text.trimmingWhitespace.lowercased()
        guard !needle.isEmpty else { return [] }
        let folded = SearchText.fold(needle)
        var filters: [Filter] = [.contains("keys", needle), .contains("definition.en", needle)]
        if folded != needle { filters.append(.contains("keys", folded)) }
        var found: [String: SearchableWord] = [:]
        for filter in filters {
            let rows = try await store.select(
                ["word", "vi", "definition.en", "ipa.british", "sense.en", "sense.vi", "picture"], matching: Query(Self.words, filters: [filter]))
            for r in rows where found[r.document.id] == nil {
                found[r.document.id] = SearchableWord(
                    id: r.document.id, word: r.string(0) ?? "", vi: r.string(1) ?? "",
                    definition: r.string(2) ?? "", britishIPA: r.string(3) ?? "",
                    sense: r.string(4).map { LocalizedText(en: $0, vi: r.string(5) ?? "") }, picture: r.string(6))
            }
        }
        return found.values.sorted { $0.id < $1.id }
    }

    /// Every entry of one part of speech (one of its parts, for "out": adverb and preposition),
    /// across the categories, in alphabetical order: the games' doing words and where-is-it
    /// rounds, which no one topic holds enough of.
    public func words(partOfSpeech: String, level: Level?) async throws -> [Word] {
        var query = Query(Self.words, filters: [.arrayContains("pos", .string(partOfSpeech))], order: [Ordering("sort"), Ordering("id")])
        if let level { query = query.filter(.arrayContains("levels", .string(level.rawValue))) }
        return try await Self.decode(store.query(query)).map(\.word)
    }

    /// All words, optionally narrowed to a category and a level, for batch work.
    public func allWords(category: String? = nil, level: Level? = nil) async throws -> [Word] {
        try await allEntries(category: category, level: level).map(\.word)
    }

    /// All entries with their ids, optionally narrowed to a category and a level.
    public func allEntries(category: String? = nil, level: Level? = nil) async throws -> [CatalogEntry] {
        var query = Query(Self.words, order: [Ordering("sort"), Ordering("id")])
        if let category {
            let c = try await self.category(named: category)
            query = query.filter(.arrayContains("categories", .string(c.id)))
        }
        if let level { query = query.filter(.arrayContains("levels", .string(level.rawValue))) }
        return try await Self.decode(store.query(query))
    }

    /// Decodes in chunks on every core, in the documents' order: decoding the whole catalog was
    /// the longest wait before `vocab render` could hand out its first clip.
    static func decode(_ documents: [Document]) async throws -> [CatalogEntry] {
        let chunk = 128
        @Sendable func entries(_ part: ArraySlice<Document>) throws -> [CatalogEntry] {
            try part.map { CatalogEntry(id: $0.id, word: try $0.decode(Word.self)) }
        }
        guard documents.count > chunk else { return try entries(documents[...]) }
        return try await withThrowingTaskGroup(of: (Int, [CatalogEntry]).self) { group in
            for start in stride(from: 0, to: documents.count, by: chunk) {
                let part = documents[start..<min(documents.count, start + chunk)]
                group.addTask { (start, try entries(part)) }
            }
            var parts: [(Int, [CatalogEntry])] = []
            for try await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }
}

/// The cached form of a word listing: length-prefixed UTF-8 fields, five per row. Reading it
/// back is a loop over bytes, where JSON would need a parser (and Codable's start-up cost).
public struct CatalogOverview: Sendable {
    public var summaries: [CategorySummary]
    /// Distinct words (a word in two categories counts once).
    public var wordCount: Int
    /// Whether the cache answered; nil without a cache.
    public var cache: CacheOutcome?
}

/// Category counts as cached: a line with the distinct word count, then one line per
/// category, "id<TAB>total<TAB>level=count,...".
enum CountCoding {
    struct Corrupt: Error {}

    static func encode(_ summaries: [CategorySummary], wordCount: Int) -> [UInt8] {
        var text = "\(wordCount)\n"
        for s in summaries {
            let levels = s.levelCounts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            text += "\(s.category.id)\t\(s.wordCount)\t\(levels)\n"
        }
        return Array(text.utf8)
    }

    static func decode(_ bytes: [UInt8]) throws -> (wordCount: Int, byCategory: [String: (total: Int, levels: [String: Int])]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, let wordCount = Int(first) else { throw Corrupt() }
        var byCategory: [String: (total: Int, levels: [String: Int])] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let total = Int(fields[1]) else { throw Corrupt() }
            var levels: [String: Int] = [:]
            for pair in fields[2].split(separator: ",") {
                let kv = pair.split(separator: "=")
                guard kv.count == 2, let n = Int(kv[1]) else { throw Corrupt() }
                levels[String(kv[0])] = n
            }
            byCategory[String(fields[0])] = (total, levels)
        }
        return (wordCount, byCategory)
    }
}

enum RowCoding {
    static func encode(_ rows: [WordRow]) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ s: String) {
            let bytes = Array(s.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
        }
        for r in rows {
            put(r.id)
            put(r.word)
            put(r.britishIPA)
            put(r.vi)
            put(r.json)
        }
        return out
    }

    struct Corrupt: Error {}

    static func decode(_ bytes: [UInt8]) throws -> [WordRow] {
        var rows: [WordRow] = []
        var i = 0
        func take() throws -> String {
            guard i + 4 <= bytes.count else { throw Corrupt() }
            let n = Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
            i += 4
            guard n >= 0, i + n <= bytes.count else { throw Corrupt() }
            defer { i += n }
            return String(decoding: bytes[i..<(i + n)], as: UTF8.self)
        }
        while i < bytes.count {
            rows.append(WordRow(id: try take(), word: try take(), britishIPA: try take(), vi: try take(), json: try take()))
        }
        return rows
    }
}

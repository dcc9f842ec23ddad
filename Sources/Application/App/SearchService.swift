import AppCore
import Catalog
import Learners
import Mandarin
import TextMatching
import Vocabulary

// One search across every source (`vocab search TEXT`, `GET /v1/search`): the catalog's
// headwords, translations and English definitions, the Mandarin dictionary's titles and
// readings, and the saved words of a learner's library. The ranking, the paging, the labels and
// the JSON shape are decided here once; the front ends only read input and print.

/// Where a search looks, in the order results of the same rank are listed.
public enum SearchSource: String, Sendable, CaseIterable, Encodable, Comparable {
    case catalog, moe, library

    public static func < (a: SearchSource, b: SearchSource) -> Bool { a.order < b.order }
    var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// How a result matched: the whole field, its start, or somewhere inside. Exact results come
/// first, then those that start with the text, then the rest.
public enum MatchRank: String, Sendable, CaseIterable, Encodable, Comparable {
    case exact, prefix, contains

    public static func < (a: MatchRank, b: MatchRank) -> Bool { a.order < b.order }
    var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// Which field of an entry matched, in the order a source prefers them within a rank.
public enum MatchField: String, Sendable, CaseIterable, Encodable, Comparable {
    case headword, translation, definition, title, pinyin, bopomofo

    public static func < (a: MatchField, b: MatchField) -> Bool { a.order < b.order }
    var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// A search as both front ends take it, checked: the text, which sources, one page.
public struct SearchRequest: Sendable, Equatable {
    public let text: String
    /// nil: every source this service has.
    public let source: SearchSource?
    public let limit: Int
    public let offset: Int

    /// `source` is "catalog", "moe", "library" or "all" (nil is all).
    public init(text: String, source: String? = nil, limit: Int = Limits.defaultSearch, offset: Int = 0) throws(Failure) {
        self.text = try InputRules.text(text, name: "search text", pathSafe: false)
        self.source = try Self.source(source)
        self.limit = try InputRules.bounded(limit, name: "limit", range: Limits.search)
        self.offset = try InputRules.bounded(offset, name: "offset", range: Limits.offset)
    }

    /// The names `source` accepts.
    public static let sourceNames = ["all"] + SearchSource.allCases.map(\.rawValue)

    public static func source(_ text: String?) throws(Failure) -> SearchSource? {
        guard let text, text.lowercased() != "all" else { return nil }
        if let source = SearchSource(rawValue: text.lowercased()) { return source }
        throw Failure(
            .badSource, "'\(Failure.quote(text))' is not a source to search; use \(sourceNames.joined(separator: ", ")).",
            suggestions: InputRules.closestOrAll(text, sourceNames))
    }
}

/// One result: which entry of which source, what to show, and why it matched.
public struct SearchResult: Sendable, Equatable, Encodable {
    public var source: SearchSource
    /// The entry's identity, as the library and `/v1/me/library` name it ("catalog:animals/cat").
    public var reference: EntryReference
    /// The headword or the characters.
    public var title: String
    /// British IPA of a catalog word; the Mandarin reading that matched (pinyin, or bopomofo when
    /// bopomofo was typed), else the entry's first pinyin; a saved reading.
    public var reading: String?
    /// The Vietnamese translation, or the first sense cut short.
    public var gloss: String?
    /// Which sense of a catalog word, where its headword has several entries ("correct", "direction").
    public var sense: LocalizedText?
    /// A catalog word's picture (an emoji), shown before its text to a child.
    public var picture: String?
    public var match: MatchField
    public var rank: MatchRank

    public init(
        source: SearchSource, reference: EntryReference, title: String, reading: String?, gloss: String?, sense: LocalizedText? = nil,
        picture: String? = nil, match: MatchField, rank: MatchRank
    ) {
        self.source = source
        self.reference = reference
        self.title = title
        self.reading = reading
        self.gloss = gloss
        self.sense = sense
        self.picture = picture
        self.match = match
        self.rank = rank
    }

    enum CodingKeys: String, CodingKey { case source, reference, id, title, reading, gloss, sense, picture, match, rank }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(reference.description, forKey: .reference)
        // A catalog entry's id as every other answer names it, to save or open it by.
        if reference.source == .catalog { try c.encode(reference.id, forKey: .id) }
        try c.encode(title, forKey: .title)
        try c.encode(reading, forKey: .reading)
        try c.encode(gloss, forKey: .gloss)
        try c.encodeIfPresent(sense, forKey: .sense)
        try c.encodeIfPresent(picture, forKey: .picture)
        try c.encode(match, forKey: .match)
        try c.encode(rank, forKey: .rank)
    }
}

/// `vocab search TEXT --json`, `GET /v1/search`: one page of results, paged like `vocab words`.
public struct SearchPage: Sendable, Equatable, Encodable {
    public var query: String
    /// What was asked: "all" or one source.
    public var source: String
    /// The sources actually searched, in ranking order (the Mandarin dictionary only once it is
    /// imported, the library only for a known learner).
    public var sources: [SearchSource]
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var results: [SearchResult]
    /// Close spellings when nothing matched.
    public var suggestions: [String]
}

/// The search itself. The catalog and the library are small and matched in memory; the
/// Mandarin dictionary returns its candidate titles and readings, which are ranked the same way.
public struct SearchService: Sendable {
    let catalog: CatalogService
    /// moe.sqlite, or on `serve --database` the database's copy.
    let dictionary: any MandarinDictionary
    var crossSource: CrossSource { CrossSource(catalog: catalog, dictionary: dictionary) }

    public init(catalog: CatalogService, dictionary: any MandarinDictionary) {
        self.catalog = catalog
        self.dictionary = dictionary
    }

    /// Results of the same rank, source and field keep this order: the source's natural one.
    struct Ranked: Sendable {
        var result: SearchResult
        /// The source's own order within a rank and field (alphabetical, strokes, syllables).
        var order: [SortKey]
        var entryID: Int64?
        /// The Mandarin reading that matched: its sense is the gloss.
        var heteronymID: Int64?
    }

    enum SortKey: Comparable, Sendable {
        case number(Int)
        case text(String)
    }

    /// One page of what matches `request.text` in the sources asked for. `library` is the
    /// learner's saved items, nil when there is no learner (an anonymous HTTP client): then no
    /// library results. Saved words of a source searched anyway are found there, not twice.
    public func search(_ request: SearchRequest, library: [SavedItem]?) async throws -> SearchPage {
        var sources = request.source.map { [$0] } ?? SearchSource.allCases
        if request.source == nil, await !dictionary.isAvailable() { sources.removeAll { $0 == .moe } }
        if library == nil { sources.removeAll { $0 == .library } }

        var found: [Ranked] = []
        if sources.contains(.catalog) { found += try await catalogMatches(request.text) }
        if sources.contains(.moe) {
            let text = request.text
            found += Self.mandarinMatches(
                text,
                candidates: try await dictionary.searchCandidates(
                    title: text, pinyinKey: ReadingKey.pinyin(text), bopomofoKey: ReadingKey.bopomofo(text)))
        }
        if sources.contains(.library), let library {
            let elsewhere = Set(
                sources.compactMap { s -> EntryReference.Source? in
                    switch s {
                    case .catalog: .catalog
                    case .moe: .moe
                    case .library: nil
                    }
                })
            found += Self.libraryMatches(request.text, in: library.filter { !elsewhere.contains($0.key.source) })
        }
        found.sort(by: Self.before)
        var page = Array(found.dropFirst(request.offset).prefix(request.limit))
        if page.contains(where: { $0.entryID != nil }) {
            // Readings and senses only for the page shown.
            let glosses = try await dictionary.searchGlosses(
                entries: page.filter { $0.heteronymID == nil }.compactMap(\.entryID),
                readings: page.compactMap(\.heteronymID))
            page = page.map { r in
                guard let id = r.entryID else { return r }
                var r = r
                if let reading = r.heteronymID {
                    r.result.gloss = glosses.readings[reading].map(Self.shortGloss)
                } else {
                    r.result.reading = glosses.entries[id]?.pinyin
                    r.result.gloss = glosses.entries[id]?.definition.map(Self.shortGloss)
                }
                return r
            }
        }
        var suggestions: [String] = []
        if found.isEmpty { suggestions = await self.suggestions(for: request.text, in: sources) }
        return SearchPage(
            query: request.text, source: request.source?.rawValue ?? "all", sources: sources, total: found.count,
            offset: request.offset, limit: request.limit, results: page.map(\.result), suggestions: suggestions)
    }

    /// What the command line reports when nothing matched anywhere: not found (exit 1), with the
    /// close spellings and, for one source, a hint naming where the text is.
    public func miss(_ page: SearchPage) async -> Failure? {
        guard page.total == 0 else { return nil }
        let names = page.sources.map { s in
            switch s {
            case .catalog: "the catalog"
            case .moe: "the Mandarin dictionary"
            case .library: "your library"
            }
        }
        let place = names.count <= 1 ? (names.first ?? "any source") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        var failure = Failure(
            .noMatch, "nothing matches '\(Failure.quote(page.query))' in \(place).",
            suggestions: page.suggestions)
        if page.source != "all" {
            // CrossSource names the command that finds it, when a lookup would.
            switch page.sources.first {
            case .catalog?:
                do { _ = try await crossSource.catalogWords(page.query) } catch { failure.hint = FailureClassifier.classify(error).hint }
            case .moe?:
                do { _ = try await crossSource.mandarinEntries(page.query) } catch { failure.hint = FailureClassifier.classify(error).hint }
            default: break
            }
            if failure.hint == nil, let all = try? await search(try SearchRequest(text: page.query, limit: 1), library: nil), all.total > 0 {
                failure.hint = "It is found in other sources: try without --source."
            }
        }
        return failure
    }

    // MARK: Ranking

    /// The order of results: by rank, then source, then the field that matched, then the
    /// source's natural order.
    static func before(_ a: Ranked, _ b: Ranked) -> Bool {
        let x = (a.result.rank, a.result.source, a.result.match)
        let y = (b.result.rank, b.result.source, b.result.match)
        return x != y ? x < y : a.order.lexicographicallyPrecedes(b.order)
    }

    /// Where `needle` is in `field`, both already folded: all of it, its start, or inside.
    static func rank(of needle: String, in field: String) -> MatchRank? {
        if field == needle { return .exact }
        if field.hasPrefix(needle) { return .prefix }
        if field.contains(needle) { return .contains }
        return nil
    }

    /// A translation lists its senses ("con mèo, mèo"): the best rank among the whole and its parts.
    static func rank(of needle: String, inList field: String) -> MatchRank? {
        let parts = field.split(whereSeparator: { ",;/".contains($0) }).map { String($0).trimmingWhitespace }
        return ([rank(of: needle, in: field)] + parts.map { rank(of: needle, in: $0) }).compactMap { $0 }.min()
    }

    /// A definition matches only on whole words ("cat" is not in "catches").
    static func containsWords(_ needle: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: needle) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false), !(after?.isLetter ?? false) { return true }
            rest = text[text.index(after: range.lowerBound)...]
        }
        return false
    }

    /// The first sense cut to a line.
    static func shortGloss(_ text: String) -> String {
        let limit = 60
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    // MARK: Sources

    func catalogMatches(_ text: String) async throws -> [Ranked] {
        let needle = SearchText.fold(text)
        return try await catalog.searchCandidates(text).compactMap { w -> Ranked? in
            let headword = Self.rank(of: needle, in: SearchText.fold(w.word)).map { ($0, MatchField.headword) }
            let translation = Self.rank(of: needle, inList: SearchText.fold(w.vi)).map { ($0, MatchField.translation) }
            let definition = Self.containsWords(needle, in: SearchText.fold(w.definition)) ? (MatchRank.contains, MatchField.definition) : nil
            guard let (rank, field) = [headword, translation, definition].compactMap({ $0 }).min(by: { ($0.0, $0.1) < ($1.0, $1.1) }) else { return nil }
            return Ranked(
                result: SearchResult(
                    source: .catalog, reference: w.reference, title: w.word, reading: w.britishIPA.isEmpty ? nil : "/\(w.britishIPA)/",
                    gloss: w.vi, sense: w.sense, picture: w.picture, match: field, rank: rank),
                order: [.text(w.word.lowercased()), .text(w.id)], entryID: nil, heteronymID: nil)
        }
    }

    /// Titles rank as typed; readings by their keys, so tones and marks do not matter
    /// ("xing2", "xíng" and "xing" are the same search). An entry found several ways is listed
    /// once, at its best.
    static func mandarinMatches(_ text: String, candidates: [SearchCandidate]) -> [Ranked] {
        let pinyin = ReadingKey.pinyin(text)
        let bopomofo = ReadingKey.bopomofo(text)
        var best: [Int64: Ranked] = [:]
        for c in candidates {
            let rank: MatchRank
            let field: MatchField
            let order: [SortKey]
            switch c.field {
            case .title:
                guard let r = Self.rank(of: text, in: c.title) else { continue }
                // Shorter titles first, then the simpler characters.
                (rank, field, order) = (r, .title, [.number(c.title.unicodeScalars.count), .number(c.strokeCount ?? Int.max), .text(c.title)])
            case .pinyin, .bopomofo:
                let key = c.field == .pinyin ? pinyin : bopomofo
                // Whole readings first, then longer words by syllables, as a pinyin index lists them.
                let syllables = c.matched.split(separator: " ").count
                (rank, field, order) = (
                    c.matched == key ? .exact : .prefix, c.field == .pinyin ? .pinyin : .bopomofo,
                    [.number(syllables), .text(c.matched), .number(c.strokeCount ?? Int.max), .text(c.title)]
                )
            }
            let candidate = Ranked(
                result: SearchResult(
                    source: .moe, reference: EntryReference(.moe, c.title), title: c.title,
                    reading: c.reading, gloss: nil, match: field, rank: rank),
                order: order + [.number(Int(c.entryID)), .number(Int(c.heteronymID ?? 0))], entryID: c.entryID, heteronymID: c.heteronymID)
            // The entry's best match; of two readings that match alike, the dictionary's first.
            if let old = best[c.entryID], Self.before(old, candidate) { continue }
            best[c.entryID] = candidate
        }
        return Array(best.values)
    }

    static func libraryMatches(_ text: String, in items: [SavedItem]) -> [Ranked] {
        let needle = SearchText.fold(text)
        let pinyin = ReadingKey.pinyin(text)
        return items.compactMap { item -> Ranked? in
            var matches: [(MatchRank, MatchField)] = []
            if let r = rank(of: needle, in: SearchText.fold(item.word)) { matches.append((r, item.key.source == .moe ? .title : .headword)) }
            if let definition = item.details?.definition, containsWords(needle, in: SearchText.fold(definition)) {
                matches.append((.contains, .definition))
            }
            if !pinyin.isEmpty, let reading = item.details?.pinyin {
                let key = ReadingKey.pinyin(reading)
                if key == pinyin { matches.append((.exact, .pinyin)) } else if key.hasPrefix(pinyin + " ") { matches.append((.prefix, .pinyin)) }
            }
            guard let (rank, field) = matches.min(by: { ($0.0, $0.1) < ($1.0, $1.1) }) else { return nil }
            return Ranked(
                result: SearchResult(
                    source: .library, reference: item.key.reference, title: item.word,
                    reading: item.details?.pinyin ?? item.details?.phonetic,
                    gloss: item.details?.definition.map(shortGloss), match: field, rank: rank),
                order: [.text(item.word.lowercased()), .number(Int(item.id))], entryID: nil, heteronymID: nil)
        }
    }

    /// Close spellings from the sources searched: the catalog's headwords and the dictionary's
    /// titles, as `vocab show` and `vocab lookup` suggest them (CrossSource).
    func suggestions(for text: String, in sources: [SearchSource]) async -> [String] {
        var out: [String] = []
        if sources.contains(.catalog) {
            do { _ = try await crossSource.catalogWords(text) } catch { out += FailureClassifier.classify(error).suggestions }
        }
        if sources.contains(.moe), LearningService.hasHan(text) {
            out += (try? await dictionary.suggestions(for: text, limit: 8)) ?? []
        }
        var seen: Set<String> = []
        return out.filter { seen.insert($0).inserted }.prefix(8).map { $0 }
    }
}

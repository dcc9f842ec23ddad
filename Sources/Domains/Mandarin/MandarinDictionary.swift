import Offloading

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The read queries the product makes of the dictionary: the seam between the embedded
/// moe.sqlite and the PostgreSQL copy `vocab db push` loads for `vocab serve --database`.
/// Both engines give the same rows in the same order with the same totals; the query
/// specification tests run on both.
///
/// Async because the server asks it from request handlers; the command line keeps calling
/// `MOEDictionary` directly, synchronously, which is what this wraps on SQLite.
public protocol MandarinDictionary: Sendable {
    /// Whether there is a dictionary to ask (an import's file on SQLite, a push on PostgreSQL).
    func isAvailable() async -> Bool
    /// Every entry with exactly this title; `MOEError.unknownTitle` with suggestions when none.
    func lookup(_ title: String) async throws -> [DictionaryEntry]
    func suggestions(for title: String, limit: Int) async throws -> [String]
    func compounds(of text: String, limit: Int, offset: Int) async throws -> CharacterList
    /// `count` different entries drawn by the generator (ids drawn as `RandomEntryDraw` draws them).
    func randomEntries<G: RandomNumberGenerator & Sendable>(count: Int, using generator: inout G) async throws -> [DictionaryEntry]
    func characters(strokes: Int, radical: String?, limit: Int, offset: Int) async throws -> CharacterList
    func characters(radical: String, limit: Int, offset: Int) async throws -> CharacterList
    func radical(of character: String) async throws -> String?
    func search(pinyin: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList
    func search(bopomofo: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList
    /// What a search across sources ranks: titles containing `title`, and readings whose key is
    /// `pinyinKey` / `bopomofoKey` or continues it by whole syllables; unordered (the caller ranks).
    func searchCandidates(title: String, pinyinKey: String, bopomofoKey: String) async throws -> [SearchCandidate]
    /// What a search result shows: for entries, their first pinyin and first sense; for
    /// readings (heteronym ids), their first sense.
    func searchGlosses(entries: [Int64], readings: [Int64]) async throws -> SearchGlosses
}

/// The short texts search results show, by entry and by reading id.
public struct SearchGlosses: Sendable, Equatable {
    /// An entry's first pinyin and first sense.
    public struct Entry: Sendable, Equatable {
        public var pinyin: String?
        public var definition: String?

        public init(pinyin: String?, definition: String?) {
            self.pinyin = pinyin
            self.definition = definition
        }
    }

    public var entries: [Int64: Entry] = [:]
    public var readings: [Int64: String] = [:]

    public init() {}
}

/// moe.sqlite behind the seam: each call opens its own read-only connection (a `MOEDictionary`
/// belongs to one task) on a thread of its own, never on a cooperative thread.
public struct SQLiteMandarinDictionary: MandarinDictionary {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (MOEDictionary) throws -> T) async throws -> T {
        let path = path
        return try await BlockingWork.run { try body(try MOEDictionary(path: path)) }
    }

    /// An import's file is there (one another version wrote is reported when it is asked).
    public func isAvailable() async -> Bool { FileManager.default.fileExists(atPath: path) }

    public func lookup(_ title: String) async throws -> [DictionaryEntry] { try await run { try $0.lookup(title) } }

    public func suggestions(for title: String, limit: Int) async throws -> [String] {
        try await run { try $0.suggestions(for: title, limit: limit) }
    }

    public func compounds(of text: String, limit: Int, offset: Int) async throws -> CharacterList {
        try await run { try $0.compounds(of: text, limit: limit, offset: offset) }
    }

    public func randomEntries<G: RandomNumberGenerator & Sendable>(count: Int, using generator: inout G) async throws -> [DictionaryEntry] {
        let start = generator
        let (entries, end) = try await run { dictionary in
            var g = start
            let entries = try dictionary.randomEntries(count: count, using: &g)
            return (entries, g)
        }
        generator = end
        return entries
    }

    public func characters(strokes: Int, radical: String?, limit: Int, offset: Int) async throws -> CharacterList {
        try await run { try $0.characters(strokes: strokes, radical: radical, limit: limit, offset: offset) }
    }

    public func characters(radical: String, limit: Int, offset: Int) async throws -> CharacterList {
        try await run { try $0.characters(radical: radical, limit: limit, offset: offset) }
    }

    public func radical(of character: String) async throws -> String? { try await run { try $0.radical(of: character) } }

    public func search(pinyin: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await run { try $0.search(pinyin: pinyin, tones: tones, limit: limit, offset: offset) }
    }

    public func search(bopomofo: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await run { try $0.search(bopomofo: bopomofo, tones: tones, limit: limit, offset: offset) }
    }

    public func searchCandidates(title: String, pinyinKey: String, bopomofoKey: String) async throws -> [SearchCandidate] {
        try await run { try $0.searchCandidates(title: title, pinyinKey: pinyinKey, bopomofoKey: bopomofoKey) }
    }

    public func searchGlosses(entries: [Int64], readings: [Int64]) async throws -> SearchGlosses {
        try await run { dictionary in
            var glosses = SearchGlosses()
            for id in entries {
                let summary = try dictionary.summary(ofEntry: id)
                glosses.entries[id] = SearchGlosses.Entry(pinyin: summary.pinyin.first, definition: summary.definition)
            }
            for id in readings {
                if let definition = try dictionary.firstDefinition(ofHeteronym: id) { glosses.readings[id] = definition }
            }
            return glosses
        }
    }
}

/// The ids a random draw picks: `next() % last + 1` until `count` different ones (or every id),
/// so both engines draw the same entries from the same import and seed.
public enum RandomEntryDraw {
    public static func ids(count: Int, last: Int64, using generator: inout some RandomNumberGenerator) -> [Int64] {
        guard last > 0 else { return [] }
        var picked: [Int64] = []
        while picked.count < min(count, Int(last)) {
            let id = Int64(generator.next() % UInt64(last)) + 1
            if !picked.contains(id) { picked.append(id) }
        }
        return picked
    }
}

// What the other engine needs to build the same answers: the models' fields, as stored.
extension DictionaryEntry {
    /// A few words carry an empty radical and stroke counts of 0: nothing to show, so none.
    public init(storedTitle title: String, radical: String?, strokes: Int?, rest: Int?, readings: [Reading]) {
        let filed = radical.map { !$0.isEmpty } ?? false || (strokes ?? 0) > 0
        self.init(
            title: title, radical: radical?.isEmpty == false ? radical : nil,
            strokeCount: filed ? strokes : nil, nonRadicalStrokeCount: filed ? rest : nil, readings: readings)
    }
}

extension Reading {
    /// Senses as stored (lists as JSON arrays), numbered items moved to their sense.
    public init(pinyin: String?, bopomofo: String?, storedDefinitions: [Definition]) {
        self.init(pinyin: pinyin, bopomofo: bopomofo, definitions: SenseNumbers.attach(storedDefinitions))
    }
}

extension CharacterSummary {
    /// `filed`: with the lookup's rule for an empty radical and 0 strokes (compounds); else as stored (listings).
    public init(
        title: String, radical: String?, strokes: Int?, rest: Int?, filed applyRule: Bool,
        pinyin: [String], bopomofo: [String], definition: String?
    ) {
        if applyRule {
            let filed = radical.map { !$0.isEmpty } ?? false || (strokes ?? 0) > 0
            self.init(
                title: title, radical: radical?.isEmpty == false ? radical : nil,
                strokeCount: filed ? strokes : nil, nonRadicalStrokeCount: filed ? rest : nil,
                pinyin: pinyin, bopomofo: bopomofo, definition: definition)
        } else {
            self.init(
                title: title, radical: radical, strokeCount: strokes, nonRadicalStrokeCount: rest,
                pinyin: pinyin, bopomofo: bopomofo, definition: definition)
        }
    }
}

extension ReadingMatch {
    public init(storedTitle title: String, pinyin: String?, bopomofo: String?, exact: Bool, definition: String?) {
        self.init(title: title, pinyin: pinyin, bopomofo: bopomofo, exact: exact, definition: definition)
    }
}

extension ReadingMatchList {
    public init(storedTotal total: Int, offset: Int, limit: Int, readings: [ReadingMatch]) {
        self.init(total: total, offset: offset, limit: limit, readings: readings)
    }
}

extension Definition {
    /// A stored sense: list fields are JSON arrays or NULL.
    public init(type: String?, text: String?, examples: String?, quotes: String?, links: String?, synonyms: String?, antonyms: String?) {
        self.init(
            type: type, text: text ?? "",
            examples: MOEDictionary.list(examples), quotes: MOEDictionary.list(quotes), links: MOEDictionary.list(links),
            synonyms: MOEDictionary.list(synonyms), antonyms: MOEDictionary.list(antonyms))
    }
}

// The defaults `MOEDictionary` has, for callers of the seam.
extension MandarinDictionary {
    public func suggestions(for title: String) async throws -> [String] { try await suggestions(for: title, limit: 8) }

    public func compounds(of text: String, limit: Int) async throws -> CharacterList {
        try await compounds(of: text, limit: limit, offset: 0)
    }

    public func characters(strokes: Int, radical: String? = nil, limit: Int) async throws -> CharacterList {
        try await characters(strokes: strokes, radical: radical, limit: limit, offset: 0)
    }

    public func characters(strokes: Int, limit: Int, offset: Int) async throws -> CharacterList {
        try await characters(strokes: strokes, radical: nil, limit: limit, offset: offset)
    }

    public func characters(radical: String, limit: Int) async throws -> CharacterList {
        try await characters(radical: radical, limit: limit, offset: 0)
    }

    public func search(pinyin: String, tones: ToneMatching = .ignore, limit: Int) async throws -> ReadingMatchList {
        try await search(pinyin: pinyin, tones: tones, limit: limit, offset: 0)
    }

    public func search(pinyin: String, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await search(pinyin: pinyin, tones: .ignore, limit: limit, offset: offset)
    }

    public func search(bopomofo: String, tones: ToneMatching = .ignore, limit: Int) async throws -> ReadingMatchList {
        try await search(bopomofo: bopomofo, tones: tones, limit: limit, offset: 0)
    }

    public func search(bopomofo: String, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await search(bopomofo: bopomofo, tones: .ignore, limit: limit, offset: offset)
    }
}

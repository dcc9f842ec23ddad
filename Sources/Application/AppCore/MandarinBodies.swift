import Mandarin
import SeededRandom

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The JSON shapes of Mandarin answers, for `--json` and the HTTP API alike (and the launcher,
// which answers the Mandarin listings itself: FoundationEssentials only).

/// `vocab lookup`, `GET /v1/moe/{title}`.
public struct MOEEntries: Encodable, Sendable {
    public var title: String
    public var entries: [DictionaryEntry]

    public init(title: String, entries: [DictionaryEntry]) {
        self.title = title
        self.entries = entries
    }
}

/// `vocab strokes`, `vocab radical`, `GET /v1/moe/strokes/{n}`, `GET /v1/moe/radical/{radical}`:
/// a page of characters, paged like `vocab words` (total, offset, limit).
public struct CharacterPage: Encodable, Sendable {
    public var strokes: Int?
    public var radical: String?
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var characters: [CharacterSummary]

    public init(strokes: Int?, radical: String?, list: CharacterList) {
        self.strokes = strokes
        self.radical = radical
        total = list.total
        offset = list.offset
        limit = list.limit
        characters = list.characters
    }

    enum CodingKeys: String, CodingKey { case strokes, radical, total, offset, limit, characters }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(strokes, forKey: .strokes)
        try c.encode(radical, forKey: .radical)
        try c.encode(total, forKey: .total)
        try c.encode(offset, forKey: .offset)
        try c.encode(limit, forKey: .limit)
        try c.encode(characters, forKey: .characters)
    }
}

/// `vocab search --pinyin/--bopomofo`, `GET /v1/moe/search`: a page of readings.
public struct ReadingSearchPage: Encodable, Sendable {
    public var pinyin: String?
    public var bopomofo: String?
    public var tones: String
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var readings: [ReadingMatch]

    public init(query: ReadingQuery, list: ReadingMatchList) {
        pinyin = query.pinyin
        bopomofo = query.bopomofo
        tones = query.tones.rawValue
        total = list.total
        offset = list.offset
        limit = list.limit
        readings = list.readings
    }

    enum CodingKeys: String, CodingKey { case pinyin, bopomofo, tones, total, offset, limit, readings }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let pinyin { try c.encode(pinyin, forKey: .pinyin) }
        if let bopomofo { try c.encode(bopomofo, forKey: .bopomofo) }
        try c.encode(tones, forKey: .tones)
        try c.encode(total, forKey: .total)
        try c.encode(offset, forKey: .offset)
        try c.encode(limit, forKey: .limit)
        try c.encode(readings, forKey: .readings)
    }
}

/// A pinyin or bopomofo search as both front ends take it: exactly one of the two, with
/// something to search once tones and punctuation are dropped.
public struct ReadingQuery: Sendable, Equatable {
    public let pinyin: String?
    public let bopomofo: String?
    public let tones: ToneMatching

    public init(pinyin: String?, bopomofo: String?, tones: ToneMatching = .ignore) throws(Failure) {
        guard (pinyin == nil) != (bopomofo == nil) else {
            throw Failure(.badReading, "give exactly one of pinyin or bopomofo.")
        }
        if let pinyin {
            _ = try InputRules.text(pinyin, name: "pinyin", pathSafe: false)
            guard !ReadingKey.pinyin(pinyin).isEmpty else {
                throw Failure(.badReading, "pinyin needs pinyin letters, like xing or xíng (got '\(Failure.quote(pinyin))').")
            }
        }
        if let bopomofo {
            _ = try InputRules.text(bopomofo, name: "bopomofo", pathSafe: false)
            guard !ReadingKey.bopomofo(bopomofo).isEmpty else {
                throw Failure(.badReading, "bopomofo needs zhuyin letters, like ㄒㄧㄥ (got '\(Failure.quote(bopomofo))').")
            }
        }
        self.pinyin = pinyin
        self.bopomofo = bopomofo
        self.tones = tones
    }

    /// One page of the readings that match.
    public func run(in dictionary: MOEDictionary, limit: Int, offset: Int) throws -> ReadingMatchList {
        if let pinyin { return try dictionary.search(pinyin: pinyin, tones: tones, limit: limit, offset: offset) }
        return try dictionary.search(bopomofo: bopomofo ?? "", tones: tones, limit: limit, offset: offset)
    }

    public func run(in dictionary: any MandarinDictionary, limit: Int, offset: Int) async throws -> ReadingMatchList {
        if let pinyin { return try await dictionary.search(pinyin: pinyin, tones: tones, limit: limit, offset: offset) }
        return try await dictionary.search(bopomofo: bopomofo ?? "", tones: tones, limit: limit, offset: offset)
    }
}

/// One radical character (水, or a variant such as 氵), as the CLI and the API take it.
public enum RadicalInput {
    /// The command line's check, made before any database is opened (and by the launcher to
    /// decide whether it can answer): one character beyond ASCII, nothing forbidden.
    public static func isOneCharacter(_ radical: String) -> Bool {
        let text = InputRules.trimmingSpaces(radical, tabs: true)
        return text.count == 1 && text.unicodeScalars.allSatisfy { $0.value > 0x7F && !InputRules.isForbidden($0) }
    }

    public static func check(_ text: String) throws -> String {
        let r = try InputRules.text(text, name: "radical")
        guard r.unicodeScalars.count == 1, r.unicodeScalars.allSatisfy({ $0.value > 0x7F }) else {
            throw Failure(.badRadical, "give one radical character, like 水 or 氵 (got '\(Failure.quote(text))').")
        }
        return r
    }
}

/// `vocab radical`, `GET /v1/moe/radical/{radical}`: a page of the characters under a radical.
/// A radical with none is "not found", like an unknown word; a character that is itself filed
/// under another radical gets that radical as a hint.
public enum RadicalListing {
    public static func page(in dictionary: MOEDictionary, radical: String, limit: Int, offset: Int) throws -> CharacterList {
        let typed = InputRules.trimmingSpaces(radical, tabs: true)
        let list = try dictionary.characters(radical: typed, limit: limit, offset: offset)
        guard list.total == 0 else { return list }
        throw none(typed, filedUnder: try dictionary.radical(of: typed))
    }

    public static func page(in dictionary: any MandarinDictionary, radical: String, limit: Int, offset: Int) async throws -> CharacterList {
        let typed = InputRules.trimmingSpaces(radical, tabs: true)
        let list = try await dictionary.characters(radical: typed, limit: limit, offset: offset)
        guard list.total == 0 else { return list }
        throw none(typed, filedUnder: try await dictionary.radical(of: typed))
    }

    static func none(_ typed: String, filedUnder filed: String?) -> Failure {
        var hint: String?
        if let filed, filed != typed {
            hint = "\(typed) itself is filed under the radical \(filed): try 'vocab radical \(filed)'."
        }
        return Failure(.unknownRadical, "no characters under the radical \(Failure.quote(typed)).", hint: hint)
    }
}

/// `vocab lookup TITLE --compounds`: a page of the entries that contain a title.
public struct CompoundPage: Encodable, Sendable {
    public var title: String
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var entries: [CharacterSummary]

    public init(title: String, list: CharacterList) {
        self.title = title
        total = list.total
        offset = list.offset
        limit = list.limit
        entries = list.characters
    }
}

/// `vocab random --source moe`: entries drawn with a seed, which is reported so a draw can be
/// repeated (`--seed`).
public struct MOERandomEntries: Encodable, Sendable {
    public var source = "moe"
    public var seed: UInt64
    public var entries: [DictionaryEntry]

    public init(seed: UInt64, entries: [DictionaryEntry]) {
        self.seed = seed
        self.entries = entries
    }

    /// The draw both front ends make: `count` entries from a generator seeded with `seed`;
    /// page n is the n-th draw of the same generator.
    public init(drawingFrom dictionary: MOEDictionary, seed: UInt64, count: Int, page: Int = 1) throws {
        var generator = SeededGenerator(seed: seed)
        var entries: [DictionaryEntry] = []
        for _ in 1...max(1, page) { entries = try dictionary.randomEntries(count: count, using: &generator) }
        self.init(seed: seed, entries: entries)
    }

    public init(drawingFrom dictionary: any MandarinDictionary, seed: UInt64, count: Int, page: Int = 1) async throws {
        var generator = SeededGenerator(seed: seed)
        var entries: [DictionaryEntry] = []
        for _ in 1...max(1, page) { entries = try await dictionary.randomEntries(count: count, using: &generator) }
        self.init(seed: seed, entries: entries)
    }
}

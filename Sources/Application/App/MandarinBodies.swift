import AppCore
import Mandarin

// The JSON shapes of Mandarin answers, for `--json` and the HTTP API alike.

/// `vocab lookup`, `GET /v1/moe/{title}`.
public struct MOEEntries: Encodable, Sendable {
    public var title: String
    public var entries: [DictionaryEntry]

    public init(title: String, entries: [DictionaryEntry]) {
        self.title = title
        self.entries = entries
    }
}

/// `vocab strokes`, `vocab radical`, `GET /v1/moe/strokes/{n}`: a page of characters.
public struct CharacterPage: Encodable, Sendable {
    public var strokes: Int?
    public var radical: String?
    public var total: Int
    public var limit: Int
    public var characters: [CharacterSummary]

    public init(strokes: Int?, radical: String?, list: CharacterList) {
        self.strokes = strokes
        self.radical = radical
        total = list.total
        limit = list.limit
        characters = list.characters
    }

    enum CodingKeys: String, CodingKey { case strokes, radical, total, limit, characters }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(strokes, forKey: .strokes)
        try c.encode(radical, forKey: .radical)
        try c.encode(total, forKey: .total)
        try c.encode(limit, forKey: .limit)
        try c.encode(characters, forKey: .characters)
    }
}

/// One radical character (水, or a variant such as 氵), as the CLI and the API take it.
public enum RadicalInput {
    public static func check(_ text: String) throws -> String {
        let r = try InputRules.text(text, name: "radical")
        guard r.unicodeScalars.count == 1, r.unicodeScalars.allSatisfy({ $0.value > 0x7F }) else {
            throw Failure(.badInput, code: "bad_radical", message: "give one radical character, like 水 or 氵 (got '\(Failure.quote(text))').")
        }
        return r
    }
}

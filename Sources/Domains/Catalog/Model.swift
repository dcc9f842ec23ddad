// Accent and AudioReferences are part of every word; whoever uses the catalog gets them too.
@_exported import Vocabulary

/// The three Cambridge Young Learners levels, in the order a child meets them.
public enum Level: String, CaseIterable, Codable, Sendable, Comparable {
    case starters, movers, flyers

    public static func < (a: Level, b: Level) -> Bool { a.index < b.index }
    var index: Int { Level.allCases.firstIndex(of: self)! }

    public static func parse(_ text: String) throws -> Level {
        guard let level = Level(rawValue: text.lowercased()) else {
            throw CatalogError.badLevel(text)
        }
        return level
    }
}

public struct LocalizedText: Codable, Sendable, Hashable {
    public var en: String
    public var vi: String
}

public struct Category: Codable, Sendable, Hashable {
    public var id: String
    public var name: LocalizedText
    public var icon: String
    public var color: String
    public var order: Int
}

public struct IPA: Codable, Sendable, Hashable {
    public var british: String
    public var american: String

    /// The transcription for an English accent (Mandarin has none: it is given as British).
    public func callAsFunction(_ accent: Accent) -> String { accent == .american ? american : british }
}

public struct Word: Codable, Sendable, Hashable {
    public var word: String
    public var levels: [Level]
    public var categories: [String]
    public var pos: [String]
    public var ipa: IPA
    public var vi: String
    public var definition: LocalizedText
    public var examples: [String: String]
    public var audio: [String: AudioReferences]?
    /// One emoji that shows the word to a child who cannot read yet, chosen entry by entry
    /// (`Categories/PICTURES.md`); nil where no emoji shows the meaning unambiguously.
    public var picture: String?
    /// The picture as a file of `Pictures/` ("openmoji/1F408.svg"): the same drawing on every
    /// device and on paper (`Pictures/README.md` says where each set comes from and its licence).
    public var image: String?
    /// Which sense this entry is, where a headword has several ("bat · animal", "bat · sports").
    public var sense: LocalizedText?
    /// The last part of the entry's id where the headword's slug will not do: another entry of
    /// the headword is in the same file ("so-starting" beside "so"), or that id was retired when a
    /// sense moved out ("right-direction"). Never changed once given: saved words and class
    /// assignments keep it.
    public var key: String?
    /// Ids this entry had before its headword was split into senses (`places-and-directions/right`
    /// is `school/right` now): a saved word or an assignment that names one names this entry.
    public var formerly: [String]?

    /// The entry's id, the one name every answer carries and every client sends back:
    /// "<first category>/<key>", or "<first category>/<headword's slug>" without a key
    /// ("animals/polar-bear", "places-and-directions/right-direction").
    public var id: String { Self.id(category: categories.first ?? "", headword: word, key: key) }

    public static func id(category: String, headword: String, key: String?) -> String { "\(category)/\(key ?? slug(headword))" }

    /// A headword as an id shows it: lower case, every character but letters and digits a hyphen.
    public static func slug(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// The level where the word is introduced.
    public var firstLevel: Level { levels.min() ?? .starters }

    /// A headword as lists show it, told apart from its other entries by its sense: "bat · animal".
    public static func label(_ headword: String, sense: LocalizedText?) -> String { label(headword, senseInEnglish: sense?.en) }

    public static func label(_ headword: String, senseInEnglish sense: String?) -> String {
        sense.map { "\(headword) · \($0)" } ?? headword
    }

    public func audio(for accent: Accent) -> AudioReferences? { audio?[accent.rawValue] }

    private enum Identity: String, CodingKey { case id }

    /// The fields as they were read, and the id: an answer names each entry, so no client
    /// rebuilds an id from a headword (a category file has no `id`; decoding ignores it).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(word, forKey: .word)
        try c.encode(levels, forKey: .levels)
        try c.encode(categories, forKey: .categories)
        try c.encode(pos, forKey: .pos)
        try c.encode(ipa, forKey: .ipa)
        try c.encode(vi, forKey: .vi)
        try c.encode(definition, forKey: .definition)
        try c.encode(examples, forKey: .examples)
        try c.encodeIfPresent(audio, forKey: .audio)
        try c.encodeIfPresent(picture, forKey: .picture)
        try c.encodeIfPresent(image, forKey: .image)
        try c.encodeIfPresent(sense, forKey: .sense)
        try c.encodeIfPresent(key, forKey: .key)
        try c.encodeIfPresent(formerly, forKey: .formerly)
        var identity = encoder.container(keyedBy: Identity.self)
        try identity.encode(id, forKey: .id)
    }

    /// Examples in level order.
    public var orderedExamples: [(Level, String)] {
        Level.allCases.compactMap { level in examples[level.rawValue].map { (level, $0) } }
    }
}

/// One file of `Categories/`.
public struct CategoryFile: Codable, Sendable {
    public var id: String
    public var name: LocalizedText
    public var icon: String
    public var color: String
    public var order: Int
    public var words: [Word]

    public var category: Category { Category(id: id, name: name, icon: icon, color: color, order: order) }
}

public enum CatalogError: Error, CustomStringConvertible, Sendable, Equatable {
    case badLevel(String)
    case unknownCategory(String, suggestions: [String])
    case unknownWord(String, suggestions: [String])
    case invalidData([ValidationIssue])
    case missingCategories(String)

    public var description: String {
        switch self {
        case .badLevel(let text):
            return "'\(text)' is not a level. Valid levels: \(Level.allCases.map(\.rawValue).joined(separator: ", "))."
        case .unknownCategory(let name, let suggestions):
            return "unknown category '\(name)'." + Self.didYouMean(suggestions) + " Run 'vocab categories' for the list."
        case .unknownWord(let word, let suggestions):
            return "'\(word)' is not in the catalog." + Self.didYouMean(suggestions)
        case .invalidData(let issues):
            let shown = issues.prefix(20).map { "  \($0)" }.joined(separator: "\n")
            let more = issues.count > 20 ? "\n  … and \(issues.count - 20) more" : ""
            return "the category data has \(issues.count) problem(s):\n\(shown)\(more)"
        case .missingCategories(let path):
            return "no category data found at \(path). Point --categories (or VOCAB_CATEGORIES) at the Categories/ folder."
        }
    }

    static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : " Did you mean: \(suggestions.joined(separator: ", "))?"
    }
}

/// One headword with all its readings, as the dictionary prints it.
public struct DictionaryEntry: Sendable, Equatable, Encodable {
    public let title: String
    /// Only single characters have a radical and stroke counts.
    public let radical: String?
    public let strokeCount: Int?
    public let nonRadicalStrokeCount: Int?
    public let readings: [Reading]
}

/// One pronunciation (a heteronym) and the senses it carries.
public struct Reading: Sendable, Equatable, Encodable {
    public let pinyin: String?
    public let bopomofo: String?
    public let definitions: [Definition]

    /// Definitions grouped by part of speech, groups in the order the dictionary first uses them.
    public var groups: [DefinitionGroup] {
        var groups: [DefinitionGroup] = []
        for definition in definitions {
            if let i = groups.firstIndex(where: { $0.type == definition.type }) {
                groups[i].definitions.append(definition)
            } else {
                groups.append(DefinitionGroup(type: definition.type, definitions: [definition]))
            }
        }
        return groups
    }

    enum CodingKeys: String, CodingKey { case pinyin, bopomofo, groups }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pinyin, forKey: .pinyin)
        try container.encode(bopomofo, forKey: .bopomofo)
        try container.encode(groups, forKey: .groups)
    }
}

/// The senses of one reading that share a part of speech.
public struct DefinitionGroup: Sendable, Equatable, Encodable {
    /// The dictionary's abbreviation (名, 動, 形…), nil when it gives none.
    public let type: String?
    public var definitions: [Definition]

    public var partOfSpeech: String? { type.flatMap(PartOfSpeech.english) }

    enum CodingKeys: String, CodingKey { case type, partOfSpeech, definitions }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(partOfSpeech, forKey: .partOfSpeech)
        try container.encode(definitions, forKey: .definitions)
    }
}

/// One sense, with its lists kept as lists.
public struct Definition: Sendable, Equatable, Encodable {
    public let type: String?
    public let text: String
    /// Usage examples, usually "如：「…」".
    public let examples: [String]
    /// Citations from the literature.
    public let quotes: [String]
    /// Cross references such as "通「撐」。".
    public let links: [String]
    public let synonyms: [String]
    public let antonyms: [String]

    public init(
        type: String?, text: String, examples: [String] = [], quotes: [String] = [], links: [String] = [],
        synonyms: [String] = [], antonyms: [String] = []
    ) {
        self.type = type
        self.text = text
        self.examples = examples
        self.quotes = quotes
        self.links = links
        self.synonyms = synonyms
        self.antonyms = antonyms
    }
}

/// The English names of the dictionary's part-of-speech abbreviations, for learners.
public enum PartOfSpeech {
    public static func english(_ abbreviation: String) -> String? {
        switch abbreviation {
        case "名": return "noun"
        case "動": return "verb"
        case "形": return "adjective"
        case "副": return "adverb"
        case "代": return "pronoun"
        case "介": return "preposition"
        case "連": return "conjunction"
        case "助": return "particle"
        case "歎": return "interjection"
        case "狀": return "onomatopoeia"
        case "綴": return "affix"
        default: return nil
        }
    }
}

/// A single character in a stroke-count or radical listing.
public struct CharacterSummary: Sendable, Equatable, Encodable {
    public let title: String
    public let radical: String?
    public let strokeCount: Int?
    public let nonRadicalStrokeCount: Int?
    public let pinyin: [String]
    public let bopomofo: [String]
    /// The first sense of the first reading, as a gloss.
    public let definition: String?
}

/// One page of characters and how many match in all.
public struct CharacterList: Sendable, Equatable, Encodable {
    public let total: Int
    public let offset: Int
    public let limit: Int
    public let characters: [CharacterSummary]

    public init(total: Int, offset: Int = 0, limit: Int, characters: [CharacterSummary]) {
        self.total = total
        self.offset = offset
        self.limit = limit
        self.characters = characters
    }
}

/// A reading found by a pinyin or bopomofo search.
public struct ReadingMatch: Sendable, Equatable, Encodable {
    public let title: String
    public let pinyin: String?
    public let bopomofo: String?
    /// True when the whole reading matches; false when the query is its first syllables.
    public let exact: Bool
    public let definition: String?
}

/// One page of a pinyin or bopomofo search and how many readings match in all.
public struct ReadingMatchList: Sendable, Equatable, Encodable {
    public let total: Int
    public let offset: Int
    public let limit: Int
    public let readings: [ReadingMatch]
}

/// Whether a reading search heeds the tones of the query.
public enum ToneMatching: String, Sendable, Equatable {
    /// xing finds xīng, xíng, xǐng and xìng (the default).
    case ignore
    /// xing2 finds only xíng; syllables of the query without a tone still match any.
    case exact
}

/// An entry found by `searchCandidates` (either engine): its title matched, or one of its readings.
public struct SearchCandidate: Sendable, Equatable {
    public enum Field: Sendable, Equatable { case title, pinyin, bopomofo }
    public let entryID: Int64
    public let title: String
    public let strokeCount: Int?
    public let field: Field
    /// The title for a title match; the reading's key ("xing zheng") for a reading match.
    public let matched: String
    /// The reading that matched (its pinyin or bopomofo as the dictionary writes it), nil for a title.
    public let reading: String?
    /// The heteronym that matched, nil for a title.
    public let heteronymID: Int64?

    public init(entryID: Int64, title: String, strokeCount: Int?, field: Field, matched: String, reading: String?, heteronymID: Int64?) {
        (self.entryID, self.title, self.strokeCount, self.field) = (entryID, title, strokeCount, field)
        (self.matched, self.reading, self.heteronymID) = (matched, reading, heteronymID)
    }
}

/// One entry of the dictionaryapi.dev format: a headword with its pronunciations and meanings.
///
/// Decoding is lenient about optional parts (the service omits empty lists and some fields),
/// but strict about the shape, so a body that is not this format counts as malformed.
public struct DictionaryEntry: Codable, Sendable, Hashable {
    public var word: String
    public var phonetic: String?
    public var phonetics: [Phonetic]
    public var meanings: [Meaning]
    public var sourceUrls: [String]

    public init(word: String, phonetic: String? = nil, phonetics: [Phonetic] = [], meanings: [Meaning], sourceUrls: [String] = []) {
        self.word = word
        self.phonetic = phonetic
        self.phonetics = phonetics
        self.meanings = meanings
        self.sourceUrls = sourceUrls
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        word = try c.decode(String.self, forKey: .word)
        phonetic = try c.decodeIfPresent(String.self, forKey: .phonetic)
        phonetics = try c.decodeIfPresent([Phonetic].self, forKey: .phonetics) ?? []
        meanings = try c.decodeIfPresent([Meaning].self, forKey: .meanings) ?? []
        sourceUrls = try c.decodeIfPresent([String].self, forKey: .sourceUrls) ?? []
    }

    /// The first transcription the entry offers, from `phonetic` or any `phonetics` item.
    public var bestPhonetic: String? {
        if let phonetic, !phonetic.isEmpty { return phonetic }
        return phonetics.lazy.compactMap(\.text).first { !$0.isEmpty }
    }
}

public struct Phonetic: Codable, Sendable, Hashable {
    public var text: String?
    public var audio: String?

    public init(text: String? = nil, audio: String? = nil) {
        self.text = text
        self.audio = audio
    }
}

public struct Meaning: Codable, Sendable, Hashable {
    public var partOfSpeech: String
    public var definitions: [Definition]
    public var synonyms: [String]
    public var antonyms: [String]

    public init(partOfSpeech: String, definitions: [Definition], synonyms: [String] = [], antonyms: [String] = []) {
        self.partOfSpeech = partOfSpeech
        self.definitions = definitions
        self.synonyms = synonyms
        self.antonyms = antonyms
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        partOfSpeech = try c.decodeIfPresent(String.self, forKey: .partOfSpeech) ?? ""
        definitions = try c.decodeIfPresent([Definition].self, forKey: .definitions) ?? []
        synonyms = try c.decodeIfPresent([String].self, forKey: .synonyms) ?? []
        antonyms = try c.decodeIfPresent([String].self, forKey: .antonyms) ?? []
    }
}

public struct Definition: Codable, Sendable, Hashable {
    public var definition: String
    public var example: String?
    public var synonyms: [String]
    public var antonyms: [String]

    public init(definition: String, example: String? = nil, synonyms: [String] = [], antonyms: [String] = []) {
        self.definition = definition
        self.example = example
        self.synonyms = synonyms
        self.antonyms = antonyms
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        definition = try c.decode(String.self, forKey: .definition)
        example = try c.decodeIfPresent(String.self, forKey: .example)
        synonyms = try c.decodeIfPresent([String].self, forKey: .synonyms) ?? []
        antonyms = try c.decodeIfPresent([String].self, forKey: .antonyms) ?? []
    }
}

extension [DictionaryEntry] {
    /// The first definition with its part of speech: the one-line summary a library keeps.
    public var firstDefinition: (partOfSpeech: String, definition: String)? {
        for entry in self {
            for meaning in entry.meanings {
                if let d = meaning.definitions.first { return (meaning.partOfSpeech, d.definition) }
            }
        }
        return nil
    }
}

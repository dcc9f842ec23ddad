import Catalog
import Learners
import Mandarin

/// What a review card shows, whatever the source: the front (the word or characters) and the
/// back (meanings, sounds, an example). One shape for `vocab review --json` and the HTTP API.
public struct CardContent: Sendable, Codable, Equatable {
    public struct Sense: Sendable, Codable, Equatable {
        public var partOfSpeech: String?
        public var text: String
    }

    /// catalog, dictionary or moe.
    public var source: String
    /// "catalog:animals/cat", "moe:行#háng".
    public var item: String
    public var front: String
    /// Which sense of the word, where its headword has several entries ("animal" / "con vật").
    public var sense: LocalizedText?
    /// An emoji that shows the word, where one does (catalog words).
    public var picture: String?
    /// The picture as a file of `Pictures/` ("openmoji/1F408.svg"), served at `/pictures/…`.
    public var image: String? = nil
    /// Vietnamese translation (catalog words).
    public var vi: String?
    /// English definition(s), or the Mandarin senses of the reading.
    public var senses: [Sense]
    public var ipa: IPA?
    /// The example at the learner's level (or the word's first level).
    public var example: String?
    public var pinyin: String?
    public var bopomofo: String?
    /// Categories and levels of a catalog word.
    public var categories: [String]?
    public var levels: [Level]?
    /// The accent or voice a clip of the front is in ("british", "mandarin").
    public var audio: String?

    /// The front as a person reads it, telling senses apart: "🦇 bat · animal".
    public var label: String {
        (picture.map { $0 + " " } ?? "") + Word.label(front, sense: sense)
    }
}

extension CardContent {
    static func catalog(_ entry: CatalogEntry, item: ItemKey, level: Level?) -> CardContent {
        let w = entry.word
        let exampleLevel = level.flatMap { w.levels.contains($0) ? $0 : nil } ?? w.firstLevel
        return CardContent(
            source: "catalog", item: item.description, front: w.word, sense: w.sense, picture: w.picture, image: w.image, vi: w.vi,
            senses: [Sense(partOfSpeech: w.pos.first, text: w.definition.en)], ipa: w.ipa,
            example: w.examples[exampleLevel.rawValue], pinyin: nil, bopomofo: nil,
            categories: w.categories, levels: w.levels, audio: "british")
    }

    static func mandarin(_ reading: Reading, title: String, item: ItemKey) -> CardContent {
        let senses = reading.definitions.prefix(6).map { Sense(partOfSpeech: $0.type.flatMap(PartOfSpeech.english), text: $0.text) }
        return CardContent(
            source: "moe", item: item.description, front: title, sense: nil, picture: nil, vi: nil, senses: Array(senses), ipa: nil, example: nil,
            pinyin: reading.pinyin, bopomofo: reading.bopomofo, categories: nil, levels: nil, audio: "mandarin")
    }

    /// From what was kept with the item: its source is not there (a dictionary word offline, a
    /// catalog word since removed, a dictionary not imported).
    static func saved(_ item: SavedItem) -> CardContent {
        let d = item.details
        return CardContent(
            source: item.key.source.rawValue, item: item.key.description, front: item.word, sense: nil, picture: nil, vi: nil,
            senses: d?.definition.map { [Sense(partOfSpeech: d?.partOfSpeech, text: $0)] } ?? [], ipa: nil, example: nil,
            pinyin: d?.pinyin, bopomofo: d?.bopomofo, categories: nil, levels: nil,
            audio: item.key.source == .moe ? "mandarin" : "british")
    }
}

import Catalog
import Mandarin

// The JSON bodies of the API, version 1. Field names and shapes are documented in
// openapi.json at the repository root; ServerTests keeps the two in step.

struct CategoryItem: Encodable, Sendable {
    var id: String
    var name: LocalizedText
    var icon: String
    var color: String
    var order: Int
    /// Words in the category at the level asked for (all levels without one).
    var wordCount: Int
    var levelCounts: [String: Int]

    init(_ s: CategorySummary) {
        id = s.category.id
        name = s.category.name
        icon = s.category.icon
        color = s.category.color
        order = s.category.order
        wordCount = s.wordCount
        levelCounts = s.levelCounts
    }
}

struct CategoryList: Encodable, Sendable {
    var level: Level?
    var categories: [CategoryItem]

    enum CodingKeys: String, CodingKey { case level, categories }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level, forKey: .level)   // null, not absent, without a level
        try c.encode(categories, forKey: .categories)
    }
}

struct WordPageBody: Encodable, Sendable {
    var category: Category
    var level: Level?
    var total: Int
    var offset: Int
    var limit: Int
    var words: [Word]

    enum CodingKeys: String, CodingKey { case category, level, total, offset, limit, words }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(category, forKey: .category)
        try c.encode(level, forKey: .level)
        try c.encode(total, forKey: .total)
        try c.encode(offset, forKey: .offset)
        try c.encode(limit, forKey: .limit)
        try c.encode(words, forKey: .words)
    }
}

struct WordEntries: Encodable, Sendable {
    var word: String
    var entries: [Word]
}

struct SearchResults: Encodable, Sendable {
    var query: String
    var limit: Int
    var results: [Word]
}

struct MOEEntries: Encodable, Sendable {
    var title: String
    var entries: [DictionaryEntry]
}

struct StrokeList: Encodable, Sendable {
    var strokes: Int
    var radical: String?
    var total: Int
    var limit: Int
    var characters: [CharacterSummary]

    enum CodingKeys: String, CodingKey { case strokes, radical, total, limit, characters }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(strokes, forKey: .strokes)
        try c.encode(radical, forKey: .radical)
        try c.encode(total, forKey: .total)
        try c.encode(limit, forKey: .limit)
        try c.encode(characters, forKey: .characters)
    }
}

struct Health: Encodable, Sendable {
    struct CatalogInfo: Encodable, Sendable { var categories: Int; var words: Int }
    var status: String
    var version: String
    var catalog: CatalogInfo
    /// Whether the MOE dictionary has been imported (the /v1/moe endpoints answer).
    var moe: Bool
    /// Whether speech synthesis, the audio tier that always works, is available.
    var tts: Bool
}

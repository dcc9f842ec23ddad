import Catalog

// The JSON shapes of catalog answers, one per answer, for `--json` and for the HTTP API alike
// (the CLI pretty-prints, the server sends them compact). openapi.json documents them, and
// HTTPTests keep the two in step.

public struct CategoryItem: Encodable, Sendable {
    public var id: String
    public var name: LocalizedText
    public var icon: String
    public var color: String
    public var order: Int
    /// Words in the category at the level asked for (all levels without one).
    public var wordCount: Int
    public var levelCounts: [String: Int]

    public init(_ s: CategorySummary) {
        id = s.category.id
        name = s.category.name
        icon = s.category.icon
        color = s.category.color
        order = s.category.order
        wordCount = s.wordCount
        levelCounts = s.levelCounts
    }
}

/// `vocab categories`, `GET /v1/categories`.
public struct CategoryList: Encodable, Sendable {
    public var level: Level?
    /// Distinct words at the level (a word in two categories counts once).
    public var wordCount: Int
    public var categories: [CategoryItem]

    public init(_ overview: CatalogOverview, level: Level?) {
        self.level = level
        wordCount = overview.wordCount
        categories = overview.summaries.map(CategoryItem.init)
    }

    enum CodingKeys: String, CodingKey { case level, wordCount, categories }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level, forKey: .level) // null, not absent, without a level
        try c.encode(wordCount, forKey: .wordCount)
        try c.encode(categories, forKey: .categories)
    }
}

/// `vocab words`, `GET /v1/categories/{id}/words`.
public struct WordPageBody: Encodable, Sendable {
    public var category: Category
    public var level: Level?
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var words: [Word]

    public init(_ page: WordPage) {
        category = page.category
        level = page.level
        total = page.total
        offset = page.offset
        limit = page.limit
        words = page.words
    }

    enum CodingKeys: String, CodingKey { case category, level, total, offset, limit, words }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(category, forKey: .category)
        try c.encode(level, forKey: .level)
        try c.encode(total, forKey: .total)
        try c.encode(offset, forKey: .offset)
        try c.encode(limit, forKey: .limit)
        try c.encode(words, forKey: .words)
    }
}

/// `GET /v1/words?pos=`: a page of the entries of one part of speech, across categories.
public struct PartOfSpeechPageBody: Encodable, Sendable {
    public var pos: String
    public var level: Level?
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var words: [Word]

    public init(pos: String, level: Level?, all: [Word], limit: Int, offset: Int) {
        self.pos = pos
        self.level = level
        total = all.count
        self.offset = min(offset, all.count)
        self.limit = limit
        words = Array(all[self.offset..<min(all.count, self.offset + limit)])
    }

    enum CodingKeys: String, CodingKey { case pos, level, total, offset, limit, words }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pos, forKey: .pos)
        try c.encode(level, forKey: .level) // null, not absent, without a level
        try c.encode(total, forKey: .total)
        try c.encode(offset, forKey: .offset)
        try c.encode(limit, forKey: .limit)
        try c.encode(words, forKey: .words)
    }
}

/// `vocab show`, `GET /v1/words/{word}`: every entry with the headword (homographs are two).
public struct WordEntries: Encodable, Sendable {
    public var word: String
    public var entries: [Word]

    public init(word: String, entries: [Word]) {
        self.word = word
        self.entries = entries
    }
}

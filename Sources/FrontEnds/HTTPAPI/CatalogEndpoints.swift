import Catalog
import Hummingbird

/// The catalog endpoints: categories, a category's words, one word, search. Each answer is
/// computed once per distinct request and then served from memory with its ETag.
struct CatalogEndpoints: Sendable {
    let catalog: CatalogService
    let cache: ResponseCache

    static let maxPageSize = 1000
    static let maxOffset = 100_000
    static let maxSearchLimit = 100

    func categories(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        let level = try InputRules.level(query["level"])
        return cache.remember(try await cache.value(for: "categories|\(level?.rawValue ?? "*")") {
            let summaries = try await catalog.summaries(level: level)
            return try .json(CategoryList(level: level, categories: summaries.map(CategoryItem.init)))
        }, for: request)
    }

    func words(_ request: Request, context: some RequestContext) async throws -> Representation {
        let id = try InputRules.pathText(context.parameters["id"], name: "category")
        let query = QueryParameters(request.uri.query)
        let level = try InputRules.level(query["level"])
        let limit = try InputRules.integer(query["limit"], name: "limit", range: 1...Self.maxPageSize, default: CatalogService.defaultPageSize)
        let offset = try InputRules.integer(query["offset"], name: "offset", range: 0...Self.maxOffset, default: 0)
        let key = "words|\(id.lowercased())|\(level?.rawValue ?? "*")|\(limit)|\(offset)"
        return cache.remember(try await cache.value(for: key) {
            let page = try await catalog.words(in: id, level: level, limit: limit, offset: offset)
            return try .json(WordPageBody(category: page.category, level: level, total: page.total, offset: page.offset,
                                          limit: limit, words: page.words))
        }, for: request)
    }

    func word(_ request: Request, context: some RequestContext) async throws -> Representation {
        let text = try InputRules.pathText(context.parameters["word"], name: "word")
        return cache.remember(try await cache.value(for: "word|\(text)") {
            let entries = try await catalog.lookup(text)
            return try .json(WordEntries(word: entries.first?.word ?? text, entries: entries))
        }, for: request)
    }

    func search(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        guard let raw = try query["q"] else { throw APIError.badRequest("missing_parameter", "give the text to search for as ?q=.") }
        let text = try InputRules.text(raw, name: "search text", pathSafe: false)
        let limit = try InputRules.integer(query["limit"], name: "limit", range: 1...Self.maxSearchLimit, default: CatalogService.defaultSearchLimit)
        return cache.remember(try await cache.value(for: "search|\(text)|\(limit)") {
            try .json(SearchResults(query: text, limit: limit, results: try await catalog.search(text, limit: limit)))
        }, for: request)
    }
}

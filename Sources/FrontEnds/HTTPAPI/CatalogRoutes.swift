import AppCore
import Catalog
import HTTPTransport
import Hummingbird

/// /v1/categories, /v1/categories/{id}/words, /v1/words?pos=, /v1/words/{word}. Each answer is
/// computed once per distinct request and then served from memory with its ETag: the catalog a
/// server opened does not change under it.
struct CatalogRoutes: Sendable {
    let catalog: CatalogService
    let cache: ResponseCache

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("categories") { request, _ in try await categories(request) }
        routes.get("categories/{id}/words") { request, context in try await words(request, context: context) }
        routes.get("words") { request, _ in try await partOfSpeech(request) }
        routes.get("words/{word}") { request, context in try await word(request, context: context) }
        return routes
    }

    func categories(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        let level = try query["level"].map { try InputRules.level($0) }
        return cache.remember(
            try await cache.value(for: "categories|\(level?.rawValue ?? "*")") {
                try .json(CategoryList(try await catalog.overview(level: level), level: level))
            }, for: request)
    }

    func words(_ request: Request, context: some RequestContext) async throws -> Representation {
        let id = try HTTPInput.pathText(context.parameters["id"], name: "category")
        let query = QueryParameters(request.uri.query)
        let level = try query["level"].map { try InputRules.level($0) }
        let limit = try query.integer("limit", range: Limits.page, default: Limits.defaultPage)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let key = "words|\(id.lowercased())|\(level?.rawValue ?? "*")|\(limit)|\(offset)"
        return cache.remember(
            try await cache.value(for: key) {
                try .json(WordPageBody(try await catalog.words(in: id, level: level, limit: limit, offset: offset)))
            }, for: request)
    }

    func partOfSpeech(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        guard let text = try query["pos"] else {
            throw Failure(.missingParameter, "give the part of speech: ?pos=verb, ?pos=preposition (see openapi.json).")
        }
        let pos = try InputRules.partOfSpeech(text)
        let level = try query["level"].map { try InputRules.level($0) }
        let limit = try query.integer("limit", range: Limits.page, default: Limits.defaultPage)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let key = "pos|\(pos)|\(level?.rawValue ?? "*")|\(limit)|\(offset)"
        return cache.remember(
            try await cache.value(for: key) {
                try .json(
                    PartOfSpeechPageBody(pos: pos, level: level, all: try await catalog.words(partOfSpeech: pos, level: level), limit: limit, offset: offset))
            }, for: request)
    }

    func word(_ request: Request, context: some RequestContext) async throws -> Representation {
        let text = try HTTPInput.pathText(context.parameters["word"], name: "word")
        return cache.remember(
            try await cache.value(for: "word|\(text)") {
                let entries = try await catalog.lookup(text)
                return try .json(WordEntries(word: entries.first?.word ?? text, entries: entries))
            }, for: request)
    }
}

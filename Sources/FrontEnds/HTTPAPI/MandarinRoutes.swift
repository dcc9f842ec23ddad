import App
import AppCore
import HTTPTransport
import Hummingbird
import Mandarin
import Offloading

/// The MOE revised Mandarin dictionary, when it has been imported (`vocab import moe`).
/// `MOEDictionary` belongs to one task, so each request opens its own read-only connection, on
/// a thread of its own; answers are cached like the catalog's.
struct MandarinRoutes: Sendable {
    let services: VocabServices
    let cache: ResponseCache

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("moe/{title}") { request, context in try await entry(request, context: context) }
        routes.get("moe/strokes/{n}") { request, context in try await strokes(request, context: context) }
        return routes
    }

    func entry(_ request: Request, context: some RequestContext) async throws -> Representation {
        let title = try HTTPInput.pathText(context.parameters["title"], name: "title")
        let services = self.services
        return cache.remember(try await cache.value(for: "moe|\(title)") {
            let entries = try await BlockingWork.run { try services.mandarin().lookup(title) }
            return try .json(MOEEntries(title: entries.first?.title ?? title, entries: entries))
        }, for: request)
    }

    func strokes(_ request: Request, context: some RequestContext) async throws -> Representation {
        let text = try HTTPInput.pathText(context.parameters["n"], name: "stroke count")
        let n = try InputRules.integer(text, name: "the stroke count", range: Limits.strokes)
        let query = QueryParameters(request.uri.query)
        let limit = try query.integer("limit", range: Limits.characters, default: Limits.defaultCharacters)
        let radical = try query["radical"].map { try RadicalInput.check($0) }
        let services = self.services
        return cache.remember(try await cache.value(for: "strokes|\(n)|\(radical ?? "")|\(limit)") {
            let list = try await BlockingWork.run { try services.mandarin().characters(strokes: n, radical: radical, limit: limit) }
            return try .json(CharacterPage(strokes: n, radical: radical, list: list))
        }, for: request)
    }
}

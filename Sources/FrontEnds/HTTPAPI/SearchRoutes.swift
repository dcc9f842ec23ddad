import App
import AppCore
import HTTPTransport
import Hummingbird
import Learners

/// /v1/search: one search across the catalog, the Mandarin dictionary and, for a signed-in
/// caller, that caller's library (App's SearchService decides what matches and in what order).
///
/// Anonymous answers are the same for everyone and are kept under their normalised key, but
/// never under the raw request target: `RepeatedRequests` answers a target before anyone is
/// authenticated, so a signed-in client asking the same target would get the anonymous page.
/// Signed-in answers are never kept at all, and say `no-store`.
struct SearchRoutes: Sendable {
    let search: SearchService
    let learning: LearningService
    let attempts: FailedAttempts
    let cache: ResponseCache

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("search") { request, context in try await search(request, context: context) }
        return routes
    }

    func search(_ request: Request, context: VocabRequestContext) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        guard let text = try query["q"] else {
            throw Failure(.missingParameter, "give the text to search for as ?q=.")
        }
        let limit = try query.integer("limit", range: Limits.search, default: Limits.defaultSearch)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let asked = try SearchRequest(text: text, source: try query["source"], limit: limit, offset: offset)
        let search = self.search
        if let learner = try await LearnerAuthenticator.optionalLearner(request, context: context, learning: learning, attempts: attempts) {
            let items = try await learning.store.items(of: learner.id)
            return try .json(try await search.search(asked, library: items), cacheControl: CachePolicy.none)
        }
        let key = "search|\(asked.source?.rawValue ?? "all")|\(asked.limit)|\(asked.offset)|\(asked.text)"
        return try await cache.value(for: key) {
            // Revalidated every time (with its ETag): the same URL signed in has more in it.
            try .json(try await search.search(asked, library: nil), cacheControl: "no-cache")
        }
    }
}

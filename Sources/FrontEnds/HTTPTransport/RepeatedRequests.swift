import Hummingbird

/// Answers a request target seen before straight from memory, before any parsing: the
/// endpoints file each successful answer under its exact target (path and query) as well
/// as under its normalised key, and the data does not change while the server runs.
/// Only targets that passed every check once are ever filed, so nothing unchecked gets through.
public struct RepeatedRequests<Context: RequestContext>: RouterMiddleware {
    public let cache: ResponseCache
    /// Told the path of each request answered from memory (for the metrics).
    public let onHit: @Sendable (String) -> Void

    public init(cache: ResponseCache, onHit: @escaping @Sendable (String) -> Void = { _ in }) {
        self.cache = cache
        self.onHit = onHit
    }

    public static func key(_ request: Request) -> String { key(target: request.uri.string) }
    /// The raw target itself: it starts with "/", which no normalised key ("word|cat") does,
    /// so the two kinds share the cache without a prefix to build per request.
    public static func key(target: String) -> String { target }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get || request.method == .head, let hit = cache[Self.key(request)] {
            onHit(request.uri.path)
            return hit.response(from: request, context: context)
        }
        return try await next(request, context)
    }
}

extension ResponseCache {
    /// Files a representation under the request's exact target too.
    public func remember(_ representation: Representation, for request: Request) -> Representation {
        store(representation, for: RepeatedRequests<BasicRequestContext>.key(request))
        return representation
    }
}

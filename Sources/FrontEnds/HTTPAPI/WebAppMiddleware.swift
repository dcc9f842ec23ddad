import HTTPTransport
import Hummingbird
import WebApp

/// Answers GET and HEAD for the web app's files (`/`, `/app.js`, …) before routing, so the
/// router holds the JSON API only (openapi.json describes exactly its routes). Each answer is
/// filed in the response cache under its target like a catalog answer, so repeats are served
/// from memory by the repeated-request lane.
struct WebAppMiddleware<Context: RequestContext>: RouterMiddleware {
    let assets: WebAssets
    let cache: ResponseCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let file = assets[request.uri.path] else {
            return try await next(request, context)
        }
        // Only the plain target is filed: a query string would make one cache entry per variant.
        if request.uri.query == nil { _ = cache.remember(file, for: request) }
        return file.response(from: request, context: context)
    }
}

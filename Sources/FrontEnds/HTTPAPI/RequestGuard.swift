import Hummingbird

/// Refuses, before routing, what no endpoint accepts: methods other than GET and HEAD,
/// request targets longer than the limit, paths with dot segments, backslashes or control
/// characters (raw or percent-encoded). Routes then see only plausible paths.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try Self.check(method: request.method, target: request.uri.string, path: request.uri.path)
        return try await next(request, context)
    }

    static func check(method: HTTPRequest.Method, target: String, path: String) throws {
        guard method == .get || method == .head else {
            throw APIError(.methodNotAllowed, code: "method_not_allowed", message: "this API only answers GET and HEAD.",
                           headers: [.allow: "GET, HEAD"])
        }
        guard target.utf8.count <= InputRules.maxURILength else {
            throw APIError(.uriTooLong, code: "uri_too_long", message: "the request target is longer than \(InputRules.maxURILength) bytes.")
        }
        guard let decoded = TextScanning.percentDecode(path[...]) else {
            throw APIError.badRequest("invalid_text", "the path is not valid percent-encoded UTF-8.")
        }
        if decoded.unicodeScalars.contains(where: InputRules.isForbidden) {
            throw APIError.badRequest("invalid_text", "the path contains control characters.")
        }
        if TextScanning.contains(decoded, ascii: "\\") || TextScanning.hasDotSegment(path) || TextScanning.hasDotSegment(decoded) {
            throw APIError.badRequest("path_traversal", "the path may not contain '.' or '..' segments or backslashes.")
        }
    }
}

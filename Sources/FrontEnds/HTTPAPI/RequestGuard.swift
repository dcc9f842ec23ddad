import AppCore
import HTTPTransport
import Hummingbird

/// Refuses, before routing, what no endpoint accepts: methods a path does not take (the public
/// API is GET and HEAD; a learner's library takes POST and DELETE, reviews POST), request
/// targets longer than the limit, paths with dot segments, backslashes or control characters
/// (raw or percent-encoded). Routes then see only plausible paths.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    /// Longest request target (path and query) the server reads; longer gets 414.
    static var maxURILength: Int { 2048 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try Self.check(method: request.method, target: request.uri.string, path: request.uri.path)
        return try await next(request, context)
    }

    /// The methods a path takes.
    static func methods(for path: String) -> [HTTPRequest.Method] {
        if path == "/v1/me/library" { return [.get, .head, .post] }
        if path.hasPrefix("/v1/me/library/") { return [.delete] }
        if path == "/v1/me/reviews" { return [.post] }
        return [.get, .head]
    }

    static func check(method: HTTPRequest.Method, target: String, path: String) throws {
        let allowed = methods(for: path)
        guard allowed.contains(method) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(status: .methodNotAllowed, code: "method_not_allowed", message: "this path answers \(names) only.",
                           headers: [.allow: names])
        }
        guard target.utf8.count <= Self.maxURILength else {
            throw Failure(.uriTooLong, code: "uri_too_long", message: "the request target is longer than \(Self.maxURILength) bytes.")
        }
        guard let decoded = TextScanning.percentDecode(path[...]) else {
            throw Failure(.badInput, code: "invalid_text", message: "the path is not valid percent-encoded UTF-8.")
        }
        if decoded.unicodeScalars.contains(where: InputRules.isForbidden) {
            throw Failure(.badInput, code: "invalid_text", message: "the path contains control characters.")
        }
        if TextScanning.contains(decoded, ascii: "\\") || TextScanning.hasDotSegment(path) || TextScanning.hasDotSegment(decoded) {
            throw Failure(.badInput, code: "path_traversal", message: "the path may not contain '.' or '..' segments or backslashes.")
        }
    }
}

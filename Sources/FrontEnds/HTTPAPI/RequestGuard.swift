import AppCore
import HTTPTransport
import Hummingbird
import Synchronization

/// Refuses, before routing, what no endpoint accepts: methods a path does not take (as the
/// router's own table says, `AllowedMethods`), request
/// targets longer than the limit, paths with dot segments, backslashes or control characters
/// (raw or percent-encoded). Routes then see only plausible paths.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    /// Longest request target (path and query) the server reads; longer gets 414.
    static var maxURILength: Int { 2048 }

    let allowed: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try Self.check(method: request.method, target: request.uri.string, path: request.uri.path, allowed: allowed.methods(for: request.uri.path))
        return try await next(request, context)
    }

    static func check(method: HTTPRequest.Method, target: String, path: String, allowed: [HTTPRequest.Method]) throws {
        guard allowed.contains(method) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw APIError(
                Failure(.methodNotAllowed, "this path answers \(names) only."),
                headers: [.allow: names])
        }
        guard target.utf8.count <= Self.maxURILength else {
            throw Failure(.uriTooLong, "the request target is longer than \(Self.maxURILength) bytes.")
        }
        guard let decoded = TextScanning.percentDecode(path[...]) else {
            throw Failure.invalidText("path", .notPercentEncoded)
        }
        if decoded.unicodeScalars.contains(where: InputRules.isForbidden) {
            throw Failure.invalidText("path", .controlCharacters)
        }
        if TextScanning.contains(decoded, ascii: "\\") || TextScanning.hasDotSegment(path) || TextScanning.hasDotSegment(decoded) {
            throw Failure(.pathTraversal, "the path may not contain '.' or '..' segments or backslashes.")
        }
    }
}

/// The methods each path answers, read from the router's table once every route is added (the
/// guard runs before routing, so it is made before the routes and filled after them). A path
/// no route matches (the web app's files, an unknown path) takes GET and HEAD, and the router
/// answers it.
final class AllowedMethods: Sendable {
    private struct Route: Sendable {
        var segments: [Substring]
        var methods: Set<HTTPRequest.Method>
        /// Literal segments: where a literal and a capture both match, the literal route decides.
        var literals: Int { segments.count { !$0.hasPrefix("{") && $0 != "*" } }
    }

    private let table = Mutex<[Route]>([])

    func load(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            byPath[route.path, default: []].insert(route.method)
            // The router answers HEAD for every GET without listing it.
            if route.method == .get { byPath[route.path, default: []].insert(.head) }
        }
        table.withLock { $0 = byPath.map { Route(segments: $0.key.split(separator: "/"), methods: $0.value) } }
    }

    /// The route template a path is answered by, for metrics: the matching route, "web" for the
    /// web app's files, "unmatched" for an unknown API path.
    func template(for path: String) -> String {
        let parts = path.split(separator: "/")
        let matches = table.withLock { routes in routes.filter { Self.matches($0.segments, parts) } }
        if let best = matches.max(by: { $0.literals < $1.literals }) { return "/" + best.segments.joined(separator: "/") }
        return path.hasPrefix("/v1/") || path == "/v1" ? "unmatched" : "web"
    }

    func methods(for path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/")
        let matches = table.withLock { routes in routes.filter { Self.matches($0.segments, parts) } }
        guard let best = matches.map(\.literals).max() else { return [.get, .head] }
        let methods = matches.filter { $0.literals == best }.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
        return order.filter(methods.contains)
    }

    private static func matches(_ pattern: [Substring], _ parts: [Substring]) -> Bool {
        if pattern.last == "**" { return parts.count >= pattern.count - 1 && zip(pattern.dropLast(), parts).allSatisfy(segment) }
        return pattern.count == parts.count && zip(pattern, parts).allSatisfy(segment)
    }

    private static func segment(_ pattern: Substring, _ part: Substring) -> Bool {
        if pattern == "*" || (pattern.hasPrefix("{") && pattern.hasSuffix("}")) { return true }
        if pattern.hasPrefix("{"), let close = pattern.firstIndex(of: "}") { return part.hasSuffix(pattern[pattern.index(after: close)...]) }
        if pattern.hasSuffix("}"), let open = pattern.firstIndex(of: "{") { return part.hasPrefix(pattern[..<open]) }
        return pattern == part
    }
}

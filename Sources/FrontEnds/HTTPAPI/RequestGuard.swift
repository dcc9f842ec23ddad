import AppCore
import HTTPTransport
import Hummingbird
import Synchronization
import TextMatching

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
        if decoded.containsBytes("\\") || TextScanning.hasDotSegment(path) || TextScanning.hasDotSegment(decoded) {
            throw Failure(.pathTraversal, "the path may not contain '.' or '..' segments or backslashes.")
        }
    }
}

/// The methods each path answers, read from the router's table once every route is added (the
/// guard runs before routing, so it is made before the routes and filled after them). A path
/// no route matches (the web app's files, an unknown path) takes GET and HEAD, and the router
/// answers it.
///
/// Every request asks, so the table is a tree of path segments walked once per request: a scan
/// of every route template, segment by segment, took a tenth of the server's CPU under load.
final class AllowedMethods: Sendable {
    private let index = Mutex(RouteIndex(routes: [:]))

    func load(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            byPath[route.path, default: []].insert(route.method)
            // The router answers HEAD for every GET without listing it.
            if route.method == .get { byPath[route.path, default: []].insert(.head) }
        }
        let built = RouteIndex(routes: byPath)
        index.withLock { $0 = built }
    }

    /// The route template a path is answered by, for metrics: the matching route, "web" for the
    /// web app's files, "unmatched" for an unknown API path.
    func template(for path: String) -> String {
        if let template = index.withLock({ $0 }).match(path)?.template { return template }
        return path.hasPrefix("/v1/") || path == "/v1" ? "unmatched" : "web"
    }

    func methods(for path: String) -> [HTTPRequest.Method] {
        index.withLock { $0 }.match(path)?.methods ?? [.get, .head]
    }
}

/// Route templates as a tree of segments. Where a literal and a capture both match a path, the
/// route with more literal segments decides (`/v1/me/library` over `/v1/me/{item}`); routes
/// equally literal answer together.
private struct RouteIndex: Sendable {
    struct Match: Sendable {
        var template: String
        var methods: [HTTPRequest.Method]
    }

    private struct End: Sendable {
        var template: String
        /// In the order an Allow header lists them.
        var methods: [HTTPRequest.Method]
        var literals: Int
    }

    static let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]

    private struct Node: Sendable {
        var literal: [Substring: Int] = [:]
        /// Captures (`{id}`, `{name}.wav`, `*`), tried in turn.
        var patterns: [(pattern: Substring, child: Int)] = []
        /// Routes that end here.
        var ends: [End] = []
        /// Routes whose next segment is `**`: they take whatever follows, or nothing.
        var rest: [End] = []
    }

    private var nodes = [Node()]

    init(routes: [String: Set<HTTPRequest.Method>]) {
        for (path, methods) in routes {
            let segments = path.split(separator: "/")
            let end = End(
                template: "/" + segments.joined(separator: "/"), methods: Self.order.filter(methods.contains),
                literals: segments.count(where: Self.isLiteral))
            var node = 0
            for segment in segments {
                if segment == "**" { break }
                node = child(of: node, segment)
            }
            if segments.last == "**" { nodes[node].rest.append(end) } else { nodes[node].ends.append(end) }
        }
    }

    /// A segment matched as itself, not a capture (`{id}`, `{name}.wav`) or a wildcard.
    private static func isLiteral(_ segment: Substring) -> Bool { !segment.contains("{") && segment != "*" && segment != "**" }

    private mutating func child(of node: Int, _ segment: Substring) -> Int {
        let literal = Self.isLiteral(segment)
        if literal, let known = nodes[node].literal[segment] { return known }
        if !literal, let known = nodes[node].patterns.first(where: { $0.pattern == segment }) { return known.child }
        nodes.append(Node())
        if literal { nodes[node].literal[segment] = nodes.count - 1 } else { nodes[node].patterns.append((segment, nodes.count - 1)) }
        return nodes.count - 1
    }

    func match(_ path: String) -> Match? {
        // Split as bytes: String's own split walks Characters, and took half of this time.
        let parts = path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
        var best: [End] = []
        collect(parts[...], from: 0, into: &best)
        guard let first = best.first else { return nil }
        if best.count == 1 { return Match(template: first.template, methods: first.methods) }
        let methods = Set(best.flatMap(\.methods))
        return Match(template: best.map(\.template).min()!, methods: Self.order.filter(methods.contains))
    }

    /// Keeps the matching routes with the most literal segments.
    private func collect(_ parts: ArraySlice<Substring>, from node: Int, into best: inout [End]) {
        let here = nodes[node]
        for end in here.rest { keep(end, in: &best) }
        guard let part = parts.first else {
            for end in here.ends { keep(end, in: &best) }
            return
        }
        if let next = here.literal[part] { collect(parts.dropFirst(), from: next, into: &best) }
        for (pattern, next) in here.patterns where Self.segment(pattern, part) { collect(parts.dropFirst(), from: next, into: &best) }
    }

    private func keep(_ end: End, in best: inout [End]) {
        guard let held = best.first?.literals, held >= end.literals else {
            best = [end]
            return
        }
        if held == end.literals { best.append(end) }
    }

    private static func segment(_ pattern: Substring, _ part: Substring) -> Bool {
        if pattern == "*" || (pattern.hasPrefix("{") && pattern.hasSuffix("}")) { return true }
        if pattern.hasPrefix("{"), let close = pattern.firstIndex(of: "}") { return part.hasSuffix(pattern[pattern.index(after: close)...]) }
        if pattern.hasSuffix("}"), let open = pattern.firstIndex(of: "{") { return part.hasPrefix(pattern[..<open]) }
        return pattern == part
    }
}

import HTTPTypes
import Hummingbird
import Logging

/// One log line per request, written when the response is ready: method, path, query,
/// status, duration and body size. Outermost middleware, so it sees the final status of
/// errors too.
/// The server's own response headers: which audio tier made a clip, and whether it was on disk.
public enum VocabHeader {
    public static let tier = HTTPField.Name("X-Vocab-Tier")!
    public static let cache = HTTPField.Name("X-Vocab-Cache")!
    /// Sent with a clip fetched before anyone plays it (`1`): it is made in the ahead lane's turn.
    public static let ahead = HTTPField.Name("X-Vocab-Ahead")!
}

public struct RequestLog<Context: RequestContext>: RouterMiddleware {
    public let logger: Logger
    /// Response headers worth a field of their own in the line (the audio tier), by log key.
    public let loggedHeaders: [(name: HTTPField.Name, key: String)]
    /// Where requests are counted, when the server exposes metrics.
    public let metrics: ServerMetrics?
    /// The route template a path is answered by ("/v1/words/{word}"), for the metrics' labels.
    public let route: @Sendable (String) -> String

    public init(
        logger: Logger, loggedHeaders: [(name: HTTPField.Name, key: String)] = [], metrics: ServerMetrics? = nil,
        route: @escaping @Sendable (String) -> String = { _ in "other" }
    ) {
        self.logger = logger
        self.loggedHeaders = loggedHeaders
        self.metrics = metrics
        self.route = route
        lines = (logger.handler as? LogfmtLogHandler).flatMap { $0.metadata.isEmpty ? $0 : nil }
    }

    /// The logger's own handler, when it writes logfmt and has no metadata to add: request lines
    /// go to it directly, the same line without swift-log's metadata (`LogfmtLogHandler.begin`).
    private let lines: LogfmtLogHandler?

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        // Every line logged while the request runs carries its id (the logger's metadata).
        if let sent = RequestID.accepted(request.headers[RequestID.field]) { context.logger[metadataKey: RequestID.metadataKey] = .string(sent) }
        let id = context.id
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // The error middleware answers everything it can; this is the last resort.
            log(request, id: id, status: 500, start: start, bytes: nil)
            throw error
        }
        response.headers[RequestID.field] = id
        log(request, id: id, status: response.status.code, start: start, bytes: response.body.contentLength, response: response)
        return response
    }

    private func log(_ request: Request, id: String, status: Int, start: ContinuousClock.Instant, bytes: Int?, response: Response? = nil) {
        log(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query, status: status, start: start,
            bytes: bytes, headers: response?.headers ?? [:], id: id)
    }

    public var isEnabled: Bool { logger.logLevel <= .info || metrics != nil }

    public func log(
        method: String, path: String, query: String?, status: Int, start: ContinuousClock.Instant, bytes: Int?, headers: HTTPFields,
        id: String, fromMemory: Bool = false
    ) {
        let elapsed = ContinuousClock.now - start
        let logging = logger.logLevel <= .info
        // One pass over the answer's fields: a look-up by name makes HTTPFields build its index
        // again, and two of them were a seventh of the instructions of a clip from memory.
        var tier: String?
        var cache: String?
        var logged: [(key: String, value: String)] = []
        for field in headers {
            if field.name == VocabHeader.tier { tier = field.value } else if field.name == VocabHeader.cache { cache = field.value }
            if logging, let key = loggedHeaders.first(where: { $0.name == field.name })?.key { logged.append((key, field.value)) }
        }
        if let metrics {
            let template = metrics.route(of: path, route)
            metrics.request(route: template, method: method, status: status, duration: elapsed)
            if fromMemory { metrics.answeredFromMemory(route: template) }
            if let tier { metrics.clip(tier: tier, cache: cache) }
        }
        guard logging else { return }
        if let lines {
            // Straight into the line's bytes, in the order `LogfmtLogHandler.ordered` gives: its
            // leading keys, then the logged headers.
            var line = lines.begin(level: .info, message: "request", fields: 8 + logged.count)
            line.append(" request_id=")
            line.appendValue(id)
            line.append(" method=")
            line.appendValue(method)
            line.append(" path=")
            line.appendValue(path)
            if let query, !query.isEmpty {
                line.append(" query=")
                line.appendValue(query)
            }
            line.append(" status=")
            line.appendNumber(status)
            line.append(" duration_ms=")
            line.appendMilliseconds(elapsed)
            if let bytes {
                line.append(" bytes=")
                line.appendNumber(bytes)
            }
            if !logged.isEmpty {
                for (key, value) in LogfmtLogHandler.ordered(logged) { line.appendField(key, value) }
            }
            lines.finish(line)
            return
        }
        var metadata: Logger.Metadata = [
            "request_id": .string(id),
            "method": .string(method),
            "path": .string(path),
            "status": .stringConvertible(status),
            "duration_ms": .string(LogfmtLogHandler.milliseconds(elapsed)),
        ]
        if let query, !query.isEmpty { metadata["query"] = .string(query) }
        if let bytes { metadata["bytes"] = .stringConvertible(bytes) }
        for (key, value) in logged { metadata[key] = .string(value) }
        logger.info("request", metadata: metadata)
    }
}

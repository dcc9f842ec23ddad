import HTTPTypes
import Hummingbird
import Logging

/// One log line per request, written when the response is ready: method, path, query,
/// status, duration and body size. Outermost middleware, so it sees the final status of
/// errors too.
public struct RequestLog<Context: RequestContext>: RouterMiddleware {
    public let logger: Logger
    /// Response headers worth a field of their own in the line (the audio tier), by log key.
    public let loggedHeaders: [(name: HTTPField.Name, key: String)]

    public init(logger: Logger, loggedHeaders: [(name: HTTPField.Name, key: String)] = []) {
        self.logger = logger
        self.loggedHeaders = loggedHeaders
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = RequestID.accepted(request.headers[HTTPField.Name(RequestID.header)!]) ?? RequestID.make()
        // Every line logged while the request runs carries its id.
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // The error middleware answers everything it can; this is the last resort.
            log(request, id: id, status: 500, start: start, bytes: nil)
            throw error
        }
        response.headers[HTTPField.Name(RequestID.header)!] = id
        log(request, id: id, status: response.status.code, start: start, bytes: response.body.contentLength, response: response)
        return response
    }

    private func log(_ request: Request, id: String, status: Int, start: ContinuousClock.Instant, bytes: Int?, response: Response? = nil) {
        log(method: request.method.rawValue, path: request.uri.path, query: request.uri.query, status: status, start: start,
            bytes: bytes, headers: response?.headers ?? [:], id: id)
    }

    public var isEnabled: Bool { logger.logLevel <= .info }

    public func log(method: String, path: String, query: String?, status: Int, start: ContinuousClock.Instant, bytes: Int?, headers: HTTPFields,
                    id: String) {
        guard logger.logLevel <= .info else { return }
        let elapsed = ContinuousClock.now - start
        var metadata: Logger.Metadata = [
            "request_id": .string(id),
            "method": .string(method),
            "path": .string(path),
            "status": .stringConvertible(status),
            "duration_ms": .string(LogfmtLogHandler.milliseconds(elapsed)),
        ]
        if let query, !query.isEmpty { metadata["query"] = .string(query) }
        if let bytes { metadata["bytes"] = .stringConvertible(bytes) }
        for (name, key) in loggedHeaders {
            if let value = headers[name] { metadata[key] = .string(value) }
        }
        logger.info("request", metadata: metadata)
    }
}

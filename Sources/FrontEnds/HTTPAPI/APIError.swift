import AppCore
import HTTPTransport
import Hummingbird

/// A failure as the API answers it: the status of its kind and the JSON body
/// `{"error": {"code": ..., "message": ..., "suggestions": [...]}}`. Handlers throw `Failure`s
/// (or domain errors, classified once by `App`); this turns them into responses.
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var failure: Failure
    /// Extra response headers (e.g. `Allow` on 405, `Retry-After` on 429).
    public var headers: HTTPFields
    /// A status that no failure kind has (405 for a method this API does not answer).
    var statusOverride: HTTPResponse.Status?

    public init(_ failure: Failure, headers: HTTPFields = [:]) {
        self.failure = failure
        self.headers = headers
    }

    /// Hummingbird's own errors keep their status (413 for a body too large, …).
    init(passing status: HTTPResponse.Status, message: String) {
        self.failure = Failure(status.code >= 500 ? .internal : .badRequest, message)
        self.headers = [:]
        self.statusOverride = status
    }

    public var status: HTTPResponse.Status { statusOverride ?? HTTPResponse.Status(code: failure.httpStatus) }
    public var description: String { "\(status.code) \(failure.code): \(failure.message)" }

    /// The wire shape of an error.
    struct Body: Codable, Sendable {
        struct Detail: Codable, Sendable {
            var code: String
            var message: String
            var suggestions: [String]
        }
        var error: Detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response { response() }

    /// JSON, never cached.
    func response() -> Response {
        let body = Body(error: .init(code: failure.code.rawValue, message: failure.message, suggestions: failure.suggestions))
        let bytes = (try? JSONCoding.encode(body)) ?? Array(#"{"error":{"code":"internal","message":"","suggestions":[]}}"#.utf8)
        var fields = headers
        fields[.contentType] = MediaType.json
        fields[.cacheControl] = "no-store"
        // Refusals that pass (busy, database down, too many tries, a full disk) say when to come back.
        if status == .tooManyRequests || status == .serviceUnavailable, fields[.retryAfter] == nil {
            fields[.retryAfter] = "\(failure.kind.retryAfter ?? 1)"
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

import Hummingbird

/// An error as the API reports it: an HTTP status and the JSON body
/// `{"error": {"code": ..., "message": ..., "suggestions": [...]}}`.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    /// A stable, machine-readable name ("unknown_word", "bad_level"…), documented in openapi.json.
    public var code: String
    /// A sentence for a person.
    public var message: String
    /// Close matches the client may have meant (empty when there are none).
    public var suggestions: [String]
    /// Extra response headers (e.g. `Allow` on 405).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, message: String, suggestions: [String] = [], headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.suggestions = suggestions
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    static func badRequest(_ code: String, _ message: String, suggestions: [String] = []) -> APIError {
        APIError(.badRequest, code: code, message: message, suggestions: suggestions)
    }

    static func notFound(_ code: String, _ message: String, suggestions: [String] = []) -> APIError {
        APIError(.notFound, code: code, message: message, suggestions: suggestions)
    }
}

/// The wire shape of an error.
struct ErrorBody: Codable, Sendable {
    struct Detail: Codable, Sendable {
        var code: String
        var message: String
        var suggestions: [String]
    }
    var error: Detail
}

extension APIError {
    /// The error as a response: JSON, never cached.
    func response() -> Response {
        let body = ErrorBody(error: .init(code: code, message: message, suggestions: suggestions))
        let bytes = (try? JSONCoding.encode(body)) ?? Array(#"{"error":{"code":"internal","message":"","suggestions":[]}}"#.utf8)
        var fields = headers
        fields[.contentType] = MediaType.json
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Limits on one request, so that nothing blocks forever or fills the disk.
public struct HTTPRequestOptions: Sendable, Hashable {
    /// Whole-request limit, seconds.
    public var timeout: Double
    public var connectTimeout: Double
    /// Bodies larger than this are refused.
    public var maxBytes: Int
    public var maxRedirects: Int
    public var headers: [String: String]

    public init(
        timeout: Double = 10, connectTimeout: Double = 3, maxBytes: Int = 10 << 20, maxRedirects: Int = 5,
        headers: [String: String] = [:]
    ) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.headers = headers
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]
    /// The URL after redirects.
    public var url: String

    public init(status: Int, contentType: String?, body: [UInt8], url: String) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.url = url
    }

    /// The media type without parameters, lower-cased ("audio/wav").
    public var mediaType: String? {
        contentType?.split(separator: ";").first.map { String($0).trimmed.lowercased() }
    }
}

public enum HTTPError: Error, CustomStringConvertible, Sendable, Equatable {
    case timedOut(url: String, seconds: Double)
    case unreachable(url: String, reason: String)
    case tooLarge(url: String, limit: Int)
    case tooManyRedirects(url: String)
    case invalidURL(String)
    case failed(url: String, reason: String)

    public var description: String {
        switch self {
        case .timedOut(let url, let s): return "timed out after \(s) s: \(url)"
        case .unreachable(let url, let reason): return "cannot reach \(url): \(reason)"
        case .tooLarge(let url, let limit): return "response from \(url) is larger than \(limit) bytes"
        case .tooManyRedirects(let url): return "too many redirects: \(url)"
        case .invalidURL(let url): return "not an http(s) URL: \(url)"
        case .failed(let url, let reason): return "request to \(url) failed: \(reason)"
        }
    }
}

/// The seam between vocab and the network; tests use a real client against a loopback server.
public protocol HTTPClient: Sendable {
    /// Fetches a URL. Any HTTP status is a response; only transport failures throw.
    func get(_ url: String, options: HTTPRequestOptions) async throws -> HTTPResponse
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}

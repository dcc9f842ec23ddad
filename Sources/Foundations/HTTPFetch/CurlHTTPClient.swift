import CCurl
import CurlShim
import Dispatch

/// HTTP GET through libcurl's easy interface, one handle per request, run off the Swift
/// concurrency pool because curl_easy_perform blocks.
public struct CurlHTTPClient: HTTPClient {
    private let queue = DispatchQueue(label: "vocab.curl", attributes: .concurrent)
    public let userAgent: String

    public init(userAgent: String = "vocab/0.1 (+libcurl)") {
        self.userAgent = userAgent
    }

    public func get(_ url: String, options: HTTPRequestOptions = HTTPRequestOptions()) async throws -> HTTPResponse {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw HTTPError.invalidURL(url) }
        let agent = userAgent
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try Self.perform(url, options: options, userAgent: agent) })
            }
        }
    }

    /// Collects the body and enforces the size limit while it arrives.
    private final class Sink {
        var body: [UInt8] = []
        let limit: Int
        var overflowed = false
        init(limit: Int) { self.limit = limit }
    }

    private static func perform(_ url: String, options: HTTPRequestOptions, userAgent: String) throws -> HTTPResponse {
        guard vocab_curl_available() != 0 else {
            throw HTTPError.failed(url: url, reason: "cannot load libcurl: " + String(cString: vocab_curl_load_error()))
        }
        guard let curl = vocab_curl_easy_init() else { throw HTTPError.failed(url: url, reason: "curl_easy_init failed") }
        defer { vocab_curl_easy_cleanup(curl) }
        let sink = Sink(limit: options.maxBytes)
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { vocab_curl_slist_free_all(headerList) }
        for (name, value) in options.headers { headerList = vocab_curl_slist_append(headerList, "\(name): \(value)") }

        vocab_curl_setopt_string(curl, CURLOPT_URL, url)
        vocab_curl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        vocab_curl_setopt_long(curl, CURLOPT_MAXREDIRS, options.maxRedirects)
        vocab_curl_setopt_long(curl, CURLOPT_NOSIGNAL, 1) // signals and threads do not mix
        vocab_curl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        vocab_curl_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        vocab_curl_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(options.timeout * 1000))
        vocab_curl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        vocab_curl_setopt_off_t(curl, CURLOPT_MAXFILESIZE_LARGE, Int64(options.maxBytes))
        vocab_curl_setopt_string(curl, CURLOPT_USERAGENT, userAgent)
        vocab_curl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        if let headerList { vocab_curl_setopt_pointer(curl, CURLOPT_HTTPHEADER, headerList) }
        vocab_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, sinkPointer)
        vocab_curl_setopt_write_function(curl, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            guard let data, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            let n = size * count
            if sink.body.count + n > sink.limit {
                sink.overflowed = true
                return 0 // makes curl stop with CURLE_WRITE_ERROR
            }
            data.withMemoryRebound(to: UInt8.self, capacity: n) { sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return n
        }

        let code = vocab_curl_easy_perform(curl)
        if sink.overflowed || code == CURLE_FILESIZE_EXCEEDED { throw HTTPError.tooLarge(url: url, limit: options.maxBytes) }
        switch code {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT: throw HTTPError.timedOut(url: url, seconds: options.timeout)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            throw HTTPError.unreachable(url: url, reason: String(cString: vocab_curl_easy_strerror(code)))
        case CURLE_TOO_MANY_REDIRECTS: throw HTTPError.tooManyRedirects(url: url)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: throw HTTPError.invalidURL(url)
        default: throw HTTPError.failed(url: url, reason: String(cString: vocab_curl_easy_strerror(code)))
        }
        var status = 0
        vocab_curl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var typePointer: UnsafePointer<CChar>?
        vocab_curl_getinfo_string(curl, CURLINFO_CONTENT_TYPE, &typePointer)
        var finalPointer: UnsafePointer<CChar>?
        vocab_curl_getinfo_string(curl, CURLINFO_EFFECTIVE_URL, &finalPointer)
        return HTTPResponse(
            status: status, contentType: typePointer.map { String(cString: $0) }, body: sink.body,
            url: finalPointer.map { String(cString: $0) } ?? url)
    }
}

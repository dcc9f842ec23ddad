import HTTPFetch

/// Why a remote service gave no usable answer. Each case is a reason to fall back to local data.
public enum RemoteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Connection refused, timeout, DNS, oversized body…
    case transport(HTTPError)
    /// A status that is neither success nor "not found" (5xx after retries, 429, …).
    case status(Int, url: String)
    /// A 200 whose body is not the expected format.
    case malformed(url: String, reason: String)

    public var description: String {
        switch self {
        case .transport(let error): return error.description
        case .status(let code, let url): return "HTTP \(code) from \(url)"
        case .malformed(let url, let reason): return "unexpected response from \(url): \(reason)"
        }
    }
}

/// How hard to try before giving up. Small by default: the caller has a fallback, and a
/// child waiting at the terminal should not.
public struct RetryPolicy: Sendable, Hashable {
    /// Extra attempts after a timeout or a 5xx. Refused connections are not retried: the
    /// server is not there, and asking again at once will not change that.
    public var retries: Int
    public var delay: Duration

    public init(retries: Int = 1, delay: Duration = .milliseconds(200)) {
        self.retries = max(0, retries)
        self.delay = delay
    }
}

/// GET with bounded retries; every HTTP status below 500 is handed back for the caller to read.
///
/// `options.timeout` bounds the whole wait, retries included, as `--timeout` promises: each
/// attempt gets what is left of it, and no retry starts with less than `shortestAttempt`
/// left (a timed-out attempt has used it all, so it is not repeated).
struct RemoteFetcher: Sendable {
    let http: any HTTPClient
    let options: HTTPRequestOptions
    let retry: RetryPolicy

    func get(_ url: String) async throws(RemoteFailure) -> HTTPResponse {
        let clock = ContinuousClock()
        let budget = Duration.milliseconds(Int((options.timeout * 1000).rounded()))
        let deadline = clock.now + budget
        var attempt = 0
        while true {
            var attemptOptions = options
            let left = Self.seconds(deadline - clock.now)
            attemptOptions.timeout = left
            attemptOptions.connectTimeout = min(options.connectTimeout, left)
            let failure: RemoteFailure
            do {
                let response = try await http.get(url, options: attemptOptions)
                guard response.status >= 500 else { return response }
                failure = .status(response.status, url: url)
            } catch let error as HTTPError {
                if case .timedOut = error {
                    // Reported against the whole budget, which is what the user set.
                    failure = .transport(.timedOut(url: url, seconds: options.timeout))
                } else {
                    throw .transport(error)
                }
            } catch {
                throw .transport(.failed(url: url, reason: "\(error)"))
            }
            guard attempt < retry.retries, deadline - clock.now - retry.delay >= Self.shortestAttempt else { throw failure }
            attempt += 1
            try? await Task.sleep(for: retry.delay)
            // The pause may have run long (a busy machine): what went wrong stays the reason.
            guard deadline - clock.now >= Self.shortestAttempt else { throw failure }
        }
    }

    /// Less than this is not worth an attempt: it would time out before a server could answer.
    static let shortestAttempt = Duration.milliseconds(100)

    static func seconds(_ duration: Duration) -> Double {
        let (s, attoseconds) = duration.components
        return max(0.001, Double(s) + Double(attoseconds) / 1e18)
    }
}

/// Percent-encodes one path segment or query value: only RFC 3986 unreserved bytes stay as they are.
func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
    }
    return out
}

/// A base URL without trailing slashes, so paths can be appended with one.
func trimmedBase(_ base: String) -> String {
    var base = base
    while base.hasSuffix("/") { base.removeLast() }
    return base
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

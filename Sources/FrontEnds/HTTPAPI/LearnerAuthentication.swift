import App
import AppCore
import Hummingbird
import HummingbirdAuth
import Learners
import NIOCore
import Synchronization

/// The request context of `vocab serve`: who the client is (the learner of a valid bearer
/// token) and where it connects from (for counting failed sign-ins).
public struct VocabRequestContext: AuthRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Learner?
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// The learner, or 401: every per-learner route starts here.
    func learner() throws -> Learner {
        guard let identity else { throw APIError.unauthorized("sign in with an API token: Authorization: Bearer TOKEN.") }
        return identity
    }
}

extension APIError {
    /// 401 with the challenge RFC 6750 asks for.
    static func unauthorized(_ message: String) -> APIError {
        APIError(Failure(.unauthorized, code: "unauthorized", message: message), headers: [.wwwAuthenticate: #"Bearer realm="vocab""#])
    }
}

/// Turns `Authorization: Bearer TOKEN` into the learner it belongs to. A header that is there
/// but malformed, unknown or revoked is a 401 at once (not an anonymous request); too many of
/// those from one address within a minute get 429 until the minute is over.
struct BearerAuthenticator: AuthenticatorMiddleware {
    typealias Context = VocabRequestContext
    let learning: LearningService
    let attempts: FailedAttempts

    func authenticate(request: Request, context: Context) async throws -> Learner? {
        guard let header = request.headers[.authorization] else { return nil }
        let address = context.remoteAddress?.ipAddress ?? "unknown"
        if let wait = attempts.blocked(address) {
            throw APIError(Failure(.tooManyRequests, code: "too_many_attempts",
                                   message: "too many failed sign-ins from this address; try again in \(wait) s."),
                           headers: [.retryAfter: "\(wait)"])
        }
        guard let token = request.headers.bearer?.token, let learner = try await learning.learner(bearer: token) else {
            attempts.fail(address)
            throw APIError.unauthorized(header.hasPrefix("Bearer ") ? "the token is unknown or revoked." : "use Authorization: Bearer TOKEN.")
        }
        return learner
    }
}

/// Failed sign-ins per client address in the current minute: a guessing client is slowed to a
/// few tries a minute, whatever it guesses.
final class FailedAttempts: Sendable {
    /// Failures an address may make per window before it is refused.
    static let allowed = 20
    static let window = 60.0

    private let state = Mutex<[String: (start: Double, count: Int)]>([:])
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = { ContinuousClock.now.secondsSinceStart }) { self.now = now }

    /// Seconds to wait, when the address has failed too often in this window.
    func blocked(_ address: String) -> Int? {
        let t = now()
        return state.withLock { table in
            guard let entry = table[address], t - entry.start < Self.window, entry.count >= Self.allowed else { return nil }
            return max(1, Int((Self.window - (t - entry.start)).rounded(.up)))
        }
    }

    func fail(_ address: String) {
        let t = now()
        state.withLock { table in
            if let entry = table[address], t - entry.start < Self.window {
                table[address] = (entry.start, entry.count + 1)
            } else {
                table[address] = (t, 1)
            }
            // Old windows are of no use: forget them now and then so the table stays small.
            if table.count > 10_000 { table = table.filter { t - $0.value.start < Self.window } }
        }
    }
}

extension ContinuousClock.Instant {
    /// Seconds since an arbitrary fixed point: only differences matter.
    var secondsSinceStart: Double {
        let d = self - ContinuousClock.Instant.processStart
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static let processStart = ContinuousClock.now
}

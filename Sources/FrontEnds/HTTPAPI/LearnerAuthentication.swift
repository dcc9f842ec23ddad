import App
import AppCore
import HTTPTransport
import HTTPTypes
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
        APIError(Failure(.unauthorized, message), headers: [.wwwAuthenticate: #"Bearer realm="vocab""#])
    }
}

/// Turns `Authorization: Bearer TOKEN` (apps) or the session cookie (the web app) into the
/// learner it belongs to; the header wins when both are sent. A credential that is there but
/// malformed, unknown, revoked or expired is a 401 at once (not an anonymous request); too many
/// of those from one address within a minute get 429 until the minute is over. A request that
/// changes data and is signed in by the cookie must carry the session's CSRF token.
struct LearnerAuthenticator: AuthenticatorMiddleware {
    typealias Context = VocabRequestContext
    let learning: LearningService
    let attempts: FailedAttempts

    func authenticate(request: Request, context: Context) async throws -> Learner? {
        if let header = request.headers[.authorization] {
            // A valid credential is never refused because others guessed from the same address
            // (a school's router); a wrong one from an address that guessed too often is.
            let address = attempts.addresses.client(request, context)
            guard let token = request.headers.bearer?.token, let learner = try await learning.learner(bearer: token) else {
                try attempts.refuseIfBlocked(address)
                attempts.fail(address)
                throw APIError.unauthorized(header.hasPrefix("Bearer ") ? "the token is unknown or revoked." : "use Authorization: Bearer TOKEN.")
            }
            return learner
        }
        guard let session = SessionCookie.token(in: request) else { return nil }
        let learner = try await SessionCookie.learner(of: session, learning: learning, attempts: attempts, request: request, context: context)
        try SessionCookie.checkForgery(request, session: session)
        return learner
    }
}

extension LearnerAuthenticator {
    /// For a public endpoint that shows a signed-in caller more (search): the learner of a valid
    /// bearer token or session cookie, else nil. A bad credential is not refused, since the
    /// endpoint is public, but counts as a failed attempt, and an address that failed too often
    /// gets the public answer whatever it sends: search is no way around the guessing limit.
    static func optionalLearner(
        _ request: Request, context: VocabRequestContext, learning: LearningService,
        attempts: FailedAttempts
    ) async throws -> Learner? {
        let header = request.headers[.authorization]
        let session = header == nil ? SessionCookie.token(in: request) : nil
        guard header != nil || session != nil else { return nil }
        let address = attempts.addresses.client(request, context)
        var learner: Learner?
        if header != nil {
            if let token = request.headers.bearer?.token { learner = try await learning.learner(bearer: token) }
        } else if let session {
            learner = try await learning.learner(session: session)
        }
        if learner == nil, attempts.blocked(address) == nil { attempts.fail(address) }
        return learner
    }
}

/// The web app's session cookie: HttpOnly (scripts never see it), SameSite=Strict (other sites'
/// pages do not make the browser send it), Path=/, for as long as the session lasts. It is not
/// marked Secure because `vocab serve` speaks plain HTTP; behind a TLS proxy the proxy may add it.
///
/// The defence against cross-site request forgery is a per-session token echoed in a header:
/// POST /v1/session and GET /v1/session give the page `csrf`, and every request that is signed
/// in by the cookie and is not GET or HEAD must send it as `X-CSRF-Token`, else 403. Another
/// site can make a browser send the cookie (SameSite aside) but cannot read the token or set
/// the header on a cross-site request without a CORS preflight, which this server never grants.
/// Signing in itself takes JSON only, which a cross-site form cannot send.
enum SessionCookie {
    static let name = "vocab_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    static func token(in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }

    static func set(_ session: String) -> String {
        Cookie(name: name, value: session, maxAge: Int(Sessions.lifetime), path: "/", httpOnly: true, sameSite: .strict).description
    }

    /// Tells the browser to forget the cookie.
    static let clear = Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict).description

    /// The session's learner, or 401 (clearing the cookie, counted as a failed sign-in) or 429
    /// for an ended session from an address that failed too often; a live session always passes.
    static func learner(
        of session: String, learning: LearningService, attempts: FailedAttempts,
        request: Request, context: VocabRequestContext
    ) async throws -> Learner {
        let address = attempts.addresses.client(request, context)
        guard let learner = try await learning.learner(session: session) else {
            try attempts.refuseIfBlocked(address)
            attempts.fail(address)
            var error = APIError.unauthorized("the session has ended; sign in again.")
            error.headers[.setCookie] = clear
            throw error
        }
        return learner
    }

    static func checkForgery(_ request: Request, session: String) throws {
        guard request.method != .get, request.method != .head else { return }
        let expected = Array(Sessions.csrf(for: session).utf8)
        guard let sent = request.headers[csrfHeader], Self.equal(Array(sent.utf8), expected) else {
            throw APIError(
                Failure(
                    .csrfTokenMissing,
                    "a request signed in by the session cookie that changes data needs the session's X-CSRF-Token header."))
        }
    }

    /// Compares without stopping at the first difference.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Failed sign-ins per client address in a window: a guessing client is slowed to a few tries
/// a minute, whatever it guesses. Two of them run in a server: one for adults' passwords and
/// credentials, one for children's pictures, sized for a school where hundreds of children sign
/// in behind one address (what protects each child is `PictureGuard`, not the address).
final class FailedAttempts: Sendable {
    struct Limit: Sendable {
        /// Failures an address may make per window before it is refused.
        var allowed: Int
        var window: Double
        /// Adults' passwords, tokens and sessions: 20 a minute.
        static let adults = Limit(allowed: 20, window: 60)
        /// Children's pictures: 1,000 in ten minutes, so that a school signing in behind its
        /// router (300 children mistyping twice) is never refused.
        static let children = Limit(allowed: 1_000, window: 600)
    }

    let limit: Limit
    let addresses: ClientAddresses
    private let state = Mutex<[String: (start: Double, count: Int)]>([:])
    private let now: @Sendable () -> Double
    private let metrics: ServerMetrics?

    init(
        _ limit: Limit = .adults, addresses: ClientAddresses = ClientAddresses(), metrics: ServerMetrics? = nil,
        now: @escaping @Sendable () -> Double = { ContinuousClock.now.secondsSinceStart }
    ) {
        self.limit = limit
        self.addresses = addresses
        self.metrics = metrics
        self.now = now
    }

    /// Seconds to wait, when the address has failed too often in this window.
    func blocked(_ address: String) -> Int? {
        let t = now()
        return state.withLock { table in
            guard let entry = table[address], t - entry.start < limit.window, entry.count >= limit.allowed else { return nil }
            return max(1, Int((limit.window - (t - entry.start)).rounded(.up)))
        }
    }

    /// The client's address, or 429 when it has failed too often in this window.
    func check(_ request: Request, _ context: VocabRequestContext) throws -> String {
        let address = addresses.client(request, context)
        try refuseIfBlocked(address)
        return address
    }

    func refuseIfBlocked(_ address: String) throws {
        if let wait = blocked(address) {
            metrics?.signInRefused()
            throw APIError(
                Failure(.tooManyAttempts, "too many failed sign-ins from this address; try again in \(wait) s."),
                headers: [.retryAfter: "\(wait)"])
        }
    }

    func fail(_ address: String) {
        metrics?.signInRefused()
        let t = now()
        state.withLock { table in
            if let entry = table[address], t - entry.start < limit.window {
                table[address] = (entry.start, entry.count + 1)
            } else {
                table[address] = (t, 1)
            }
            // Old windows are of no use: forget them now and then so the table stays small.
            if table.count > 10_000 { table = table.filter { t - $0.value.start < limit.window } }
        }
    }
}

/// Who a request comes from: the connection's address, or, when that is one of the configured
/// reverse proxies, the address the proxies say they received it from (`X-Forwarded-For`, read
/// from the right, past every trusted proxy). From anyone else the header counts for nothing, so
/// a client cannot pick the address it is counted under.
struct ClientAddresses: Sendable {
    let trusted: Set<String>

    init(trustedProxies: [String] = []) { trusted = Set(trustedProxies) }

    func client(_ request: Request, _ context: VocabRequestContext) -> String {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        guard trusted.contains(peer) else { return peer }
        let forwarded = request.headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return forwarded.last { !trusted.contains($0) } ?? forwarded.first ?? peer
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

extension ContinuousClock.Instant {
    /// Seconds since an arbitrary fixed point: only differences matter.
    var secondsSinceStart: Double {
        let d = self - ContinuousClock.Instant.processStart
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static let processStart = ContinuousClock.now
}

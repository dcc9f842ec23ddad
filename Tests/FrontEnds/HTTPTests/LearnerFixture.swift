import App
import FSRS
import Foundation
import Learners
import TestSupport

/// A learner of the test server with their API token, as `vocab users add` prints it.
struct TestLearner: Sendable {
    var learner: Learner
    var token: String
    var id: Int64 { learner.id }
    var name: String { learner.name }
    var authorization: [String: String] { ["Authorization": "Bearer \(token)"] }
    /// When set, requests sign in with this web session (cookie and CSRF token) instead of the token.
    var session: (cookie: String, csrf: String)?
    /// The headers a request of this learner carries.
    var credentials: [String: String] {
        if let session { return ["Cookie": session.cookie, "X-CSRF-Token": session.csrf] }
        return authorization
    }

    /// The same learner signed in to the web app: a password set, then POST /v1/session over HTTP.
    func signedIn(_ server: TestServer, data: LearnerData, password: String = "correct horse battery") async throws -> TestLearner {
        try await data.learning.setPassword(password, for: learner)
        let r = try await server.send("POST", "/v1/session", json: #"{"name":"\#(name)","password":"\#(password)"}"#)
        guard r.status == 200, let cookie = r.sessionCookie, let csrf = try r.object()["csrf"] as? String else {
            throw ClientError("sign-in of \(name) failed: \(r.status) \(r.text)")
        }
        var copy = self
        copy.session = (cookie, csrf)
        return copy
    }
}

/// The test's own way into the server's learner data: the same user.sqlite, through a
/// connection of its own and the same composition root, so what it sets up and reads back is
/// what the server stores (not what the server says it stores).
struct LearnerData: Sendable {
    let learning: LearningService
    var store: any LearnerStore { learning.store }

    static func open(_ server: TestServer) async throws -> LearnerData {
        let app = try VocabApp(environment: TestServer.environment(server.dir), database: .embedded, use: .server)
        return LearnerData(learning: try await app.learning())
    }

    func add(_ name: String) async throws -> TestLearner {
        let (learner, token) = try await learning.addLearner(named: name)
        return TestLearner(learner: learner, token: token)
    }

    /// Saves catalog words; returns the items, one per entry.
    @discardableResult
    func save(_ words: [String], for learner: TestLearner) async throws -> [SavedItem] {
        var items: [SavedItem] = []
        for word in words { items += try await learning.save(word, for: learner.learner, source: .catalog).map(\.item) }
        return items
    }

    func rate(_ item: SavedItem, _ rating: Rating, for learner: TestLearner) async throws {
        _ = try await learning.rate(item: item.id, rating: rating, for: learner.learner)
    }

    /// Everything stored for a learner, to compare before and after: items, cards, review log.
    func snapshot(of learner: TestLearner) async throws -> String {
        let cards = try await store.cards(of: learner.id).map { "\($0.item) \($0.card)" }
        let reviews = try await store.reviews(of: learner.id, since: 0).map { "\($0)" }
        let settings = "\(try await store.learner(id: learner.id)?.settings as Any)"
        return (cards + reviews + [settings]).joined(separator: "\n")
    }
}

extension TestServer {
    /// A request with an optional bearer token and JSON body.
    func send(
        _ method: String, _ target: String, token: String? = nil, json: String? = nil,
        headers: [String: String] = [:], from source: String? = nil
    ) async throws -> RawResponse {
        var all = headers
        if let token { all["Authorization"] = "Bearer \(token)" }
        if json != nil { all["Content-Type"] = all["Content-Type"] ?? "application/json" }
        return try await RawHTTP.get(port: port, target, method: method, headers: all, body: json.map { Array($0.utf8) }, from: source)
    }
}

extension RawResponse {
    /// The session cookie a response sets, as a request's Cookie header sends it back.
    var sessionCookie: String? {
        guard let header = header("set-cookie"), let pair = header.split(separator: ";").first, pair.hasPrefix("vocab_session=") else { return nil }
        return String(pair)
    }
}

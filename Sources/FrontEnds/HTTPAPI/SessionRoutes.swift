import App
import AppCore
import Foundation
import HTTPTransport
import Hummingbird
import Learners

/// /v1/session: people sign in to the web app with their name and password and get a session
/// cookie (see `SessionCookie`); apps keep using API tokens. Failed sign-ins count towards the
/// same per-address limit as bad tokens.
struct SessionRoutes: Sendable {
    let learning: LearningService
    let classes: ClassService
    let attempts: FailedAttempts

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.post("session") { request, context in try await signIn(request, context: context) }
        routes.get("session") { request, context in try await current(request, context: context) }
        routes.delete("session") { request, context in try await signOut(request, context: context) }
        return routes
    }

    /// The signed-in learner as the web app needs it: who, and the CSRF token to send back.
    struct SessionBody: Encodable {
        var id: Int64
        var name: String
        var csrf: String
    }

    struct SignInRequest: Decodable {
        var name: String
        var password: String
    }

    func signIn(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let address = try attempts.check(request, context)
        try Self.requireJSON(request)
        let body = try await LearnerRoutes.decode(SignInRequest.self, from: request, context: context)
        guard let (learner, session) = try await learning.signIn(name: body.name, password: body.password) else {
            attempts.fail(address)
            throw APIError.unauthorized("the name or the password is wrong.")
        }
        var response = try LearnerRoutes.json(SessionBody(id: learner.id, name: learner.name, csrf: Sessions.csrf(for: session)))
        response.headers[.setCookie] = SessionCookie.set(session)
        return response
    }

    /// A cross-site HTML form cannot send JSON, so it cannot sign a browser in to another account.
    static func requireJSON(_ request: Request) throws {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIError(Failure(.jsonOnly, "send the sign-in as JSON (Content-Type: application/json)."))
        }
    }

    func current(_ request: Request, context: VocabRequestContext) async throws -> Response {
        guard let session = SessionCookie.token(in: request) else {
            throw APIError.unauthorized("not signed in: POST /v1/session with a name and password.")
        }
        let learner = try await SessionCookie.learner(of: session, learning: learning, attempts: attempts, request: request, context: context)
        return try LearnerRoutes.json(
            SessionBody(id: learner.id, name: try await classes.displayName(of: learner), csrf: Sessions.csrf(for: session)))
    }

    func signOut(_ request: Request, context: VocabRequestContext) async throws -> Response {
        guard let session = SessionCookie.token(in: request) else {
            throw APIError.unauthorized("not signed in: there is no session to end.")
        }
        _ = try await SessionCookie.learner(of: session, learning: learning, attempts: attempts, request: request, context: context)
        try SessionCookie.checkForgery(request, session: session)
        _ = try await learning.signOut(session: session)
        return Response(status: .noContent, headers: [.cacheControl: "no-store", .setCookie: SessionCookie.clear])
    }
}

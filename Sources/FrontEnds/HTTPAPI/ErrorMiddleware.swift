import App
import AppCore
import Hummingbird

/// Catches what the routes below it throw and answers with the JSON error body: failures and
/// domain errors as `App` classifies them, the router's own (no such route) as 404. Anything
/// unexpected is a 500 whose details stay in the log.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let api = Self.apiError(for: error)
            if api.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            }
            return api.response()
        }
    }

    static func apiError(for error: any Error) -> APIError {
        switch error {
        case let e as APIError:
            return e
        case let e as HTTPError:
            switch e.status {
            case .notFound: return APIError(Failure(.notFound, "no such endpoint; see openapi.json for the API."))
            case .uriTooLong: return APIError(Failure(.uriTooLong, "the request target is too long."))
            default:
                return APIError(passing: e.status, message: e.body ?? e.status.reasonPhrase)
            }
        default:
            var failure = FailureClassifier.classify(error)
            // Internal details (file paths, SQL) are for the log, not for clients.
            if failure.kind == .internalError || failure.kind == .io || failure.kind == .invalidData {
                failure = Failure(.internal, "the server could not answer; the failure is in its log.")
            }
            return APIError(failure)
        }
    }
}

import Catalog
import Hummingbird
import Mandarin

/// Turns whatever a handler threw into the API's error: known failures get their 4xx and
/// suggestions; anything else is a 500 whose details stay in the log.
enum ErrorMapping {
    static func apiError(for error: Error) -> APIError {
        switch error {
        case let e as APIError:
            return e
        case let e as CatalogError:
            switch e {
            case .unknownCategory(let name, let suggestions):
                return .notFound("unknown_category", "there is no category '\(InputRules.clip(name))'.", suggestions: suggestions)
            case .unknownWord(let word, let suggestions):
                return .notFound("unknown_word", "'\(InputRules.clip(word))' is not in the catalog.", suggestions: suggestions)
            case .badLevel(let text):
                return .badRequest("bad_level", "'\(InputRules.clip(text))' is not a level.", suggestions: Level.allCases.map(\.rawValue))
            case .invalidData, .missingCategories:
                return internalError
            }
        case let e as MOEError:
            switch e {
            case .unknownTitle(let title, let suggestions):
                return .notFound("unknown_title", "'\(InputRules.clip(title))' is not in the MOE dictionary.", suggestions: suggestions)
            case .notImported:
                return .notFound("dictionary_not_imported", "the MOE dictionary has not been imported on this server.")
            default:
                return internalError
            }
        case is AudioUnavailable:
            return APIError(.serviceUnavailable, code: "audio_unavailable",
                            message: "no audio tier could produce this clip on this server (is espeak-ng installed?).")
        case let e as HTTPError:
            switch e.status {
            case .notFound: return .notFound("not_found", "no such endpoint; see openapi.json for the API.")
            case .uriTooLong: return APIError(.uriTooLong, code: "uri_too_long", message: "the request target is too long.")
            default:
                return APIError(e.status, code: e.status.code < 500 ? "bad_request" : "internal",
                                message: e.body ?? e.status.reasonPhrase)
            }
        default:
            return internalError
        }
    }

    static let internalError = APIError(.internalServerError, code: "internal", message: "the server could not answer; the failure is in its log.")
}

/// Catches errors from the routes below it and answers with the JSON error body.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let api = ErrorMapping.apiError(for: error)
            if api.status.code >= 500 || error is AudioUnavailable {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            }
            return api.response()
        }
    }
}

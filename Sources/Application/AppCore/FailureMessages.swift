/// The failures made in more than one place, each with its one message: a code means the same
/// words wherever it comes from (the CLI, the server, a service).
extension Failure {
    public enum TextProblem: Sendable {
        case empty, controlCharacters, notPercentEncoded

        func sentence(_ name: String) -> String {
            switch self {
            case .empty: "the \(name) is empty."
            case .controlCharacters: "the \(name) contains control characters."
            case .notPercentEncoded: "the \(name) is not valid percent-encoded UTF-8."
            }
        }
    }

    public static func invalidText(_ name: String, _ problem: TextProblem) -> Failure {
        Failure(.invalidText, problem.sentence(name))
    }

    public static func tooLong(_ name: String) -> Failure {
        Failure(.tooLong, "the \(name) is longer than \(Limits.textLength) characters.")
    }

    public static func missingParameter(_ name: String) -> Failure {
        Failure(.missingParameter, "the \(name) is missing.")
    }

    public static func badLevel(_ text: String, valid: [String]) -> Failure {
        Failure(
            .badLevel, "'\(quote(text))' is not a level; use one of \(valid.joined(separator: ", ")).",
            suggestions: InputRules.closestOrAll(text, valid))
    }

    public static func unknownItem(_ id: Int64) -> Failure {
        Failure(.unknownItem, "there is no item \(id) in this library.")
    }

    public static func unknownLearner(_ name: String) -> Failure {
        Failure(
            .unknownLearner, "there is no learner '\(quote(name))'.",
            hint: "'vocab users list' shows them; 'vocab users add NAME' makes one.")
    }

    public static func staleCard(_ version: Int) -> Failure {
        Failure(.staleCard, "the card changed since it was read; it is now at version \(version).")
    }

    public static let nothingToUndo = Failure(.nothingToUndo, "there is no rating to undo.")

    /// A write that found no space. Nothing of it was stored, and the same request succeeds once
    /// space is freed; commands and requests that only read go on meanwhile.
    public static let diskFull = Failure(
        .diskFull, "the disk is full, so nothing was stored; try again once there is space.",
        hint: "Free some space where vocab keeps its data; commands that only read still work.")

    public static func badItem() -> Failure {
        Failure(.badItem, "the item must be an item's number, as GET /v1/me/library or 'vocab library list' shows it.")
    }
}

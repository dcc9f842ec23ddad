/// A failure as both front ends report it: what kind it is (which fixes the exit code and the
/// HTTP status), a stable machine-readable code, a sentence for a person and close matches.
/// Domain errors become failures in one place (`App`'s classifier); the CLI prints them with
/// `vocab:` and exits with `exitCode`, the server answers `httpStatus` with a JSON body.
public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// An unknown category, word, title or saved item.
        case notFound
        /// A bad option, level, accent, number or text.
        case badInput
        /// Data on disk or in a request body that cannot be used (category files, dictionary JSON).
        case invalidData
        /// A file or an import the command needs is not there (no dictionary imported yet).
        case missingInput
        /// A service it depends on cannot answer now (speech synthesis missing, database down).
        case unavailable
        /// The request conflicts with the current state (a rating on a card that changed meanwhile).
        case conflict
        /// No valid credentials.
        case unauthorized
        /// Valid credentials, but the request lacks what they require (the CSRF token of a session).
        case forbidden
        /// A method the path does not answer.
        case methodNotAllowed
        /// A body in a media type the endpoint does not take.
        case unsupportedMediaType
        /// Too many failed attempts from one client.
        case tooManyRequests
        /// The same request can succeed later without any change to it (the disk is full now).
        case temporary
        /// The request target is longer than the server reads.
        case uriTooLong
        /// Reading or writing a file failed.
        case io
        /// A bug or a broken installation: details are in the log.
        case internalError

        /// sysexits(3) codes; 1 for "not found", as grep and friends use.
        public var exitCode: Int32 {
            switch self {
            case .notFound: 1
            case .badInput, .methodNotAllowed, .unsupportedMediaType: 64
            case .invalidData: 65
            case .missingInput: 66
            case .unavailable: 69
            case .internalError: 70
            case .io: 74
            case .conflict, .tooManyRequests, .temporary: 75
            case .unauthorized, .forbidden: 77
            case .uriTooLong: 64
            }
        }

        /// What the kind means at a terminal, for the exit-code table; nil for the kinds only
        /// the HTTP API meets.
        public var commandMeaning: String? {
            switch self {
            case .notFound: "not found (an unknown category, word, title, learner or saved item)"
            case .badInput: "bad usage (an unknown option, a bad level, accent, number or text)"
            case .invalidData: "invalid data (category files, dictionary JSON, config, a file from a newer vocab)"
            case .missingInput: "missing input (no category folder, no imported dictionary, a missing file)"
            case .unavailable: "a service is unavailable (speech synthesis, the database)"
            case .internalError: "a broken installation"
            case .io: "an I/O error"
            case .conflict: "a conflict (a name taken, a card changed meanwhile)"
            case .tooManyRequests: "too many attempts"
            case .temporary: "a temporary failure (the disk is full: the same command works once there is space)"
            case .unauthorized: "no valid credentials"
            case .forbidden: "not allowed"
            case .methodNotAllowed, .unsupportedMediaType, .uriTooLong: nil
            }
        }

        /// Seconds an HTTP client is asked to wait before the same request (`Retry-After`) when
        /// the kind passes by itself: a full disk waits for a person, so not every second.
        public var retryAfter: Int? {
            switch self {
            case .temporary: 30
            case .unavailable, .tooManyRequests: 1
            default: nil
            }
        }

        public var httpStatus: Int {
            switch self {
            case .notFound, .missingInput: 404
            case .badInput: 400
            case .conflict: 409
            case .unauthorized: 401
            case .forbidden: 403
            case .methodNotAllowed: 405
            case .unsupportedMediaType: 415
            case .tooManyRequests: 429
            case .uriTooLong: 414
            case .unavailable, .temporary: 503
            case .invalidData, .io, .internalError: 500
            }
        }
    }

    /// What a command's exit code means, in `vocab --help` and docs/reference.md: each code with
    /// the kinds that end a command with it, made from `Kind` so that neither can drift.
    public static var exitCodes: String {
        let codes = Set(Kind.allCases.compactMap { $0.commandMeaning == nil ? nil : $0.exitCode }).sorted()
        let parts = codes.map { code in
            "\(code) " + Kind.allCases.filter { $0.exitCode == code }.compactMap(\.commandMeaning).joined(separator: " or ")
        }
        return "Exit codes: 0 ok, " + parts.joined(separator: ", ") + "."
    }

    /// Stable and documented in openapi.json; fixes the kind.
    public var code: FailureCode
    public var kind: Kind { code.kind }
    public var message: String
    public var suggestions: [String]
    /// What to do next at a terminal ("Run 'vocab validate' for the full list."). Only the CLI
    /// shows it: HTTP clients are programs, which act on the code instead.
    public var hint: String?

    public init(_ code: FailureCode, _ message: String, suggestions: [String] = [], hint: String? = nil) {
        self.code = code
        self.message = message
        self.suggestions = suggestions
        self.hint = hint
    }

    public var exitCode: Int32 { kind.exitCode }
    public var httpStatus: Int { kind.httpStatus }

    /// The message with its suggestions and hint, as the CLI prints it after "vocab: ".
    public var description: String {
        var text = message
        if !suggestions.isEmpty, !message.contains("Did you mean") {
            text += " Did you mean: \(suggestions.joined(separator: ", "))?"
        }
        if let hint { text += (hint.hasPrefix("\n") ? "" : " ") + hint }
        return text
    }

    /// Text a user typed, as messages quote it: control characters shown as escapes (an ESC
    /// in a word must not reach a terminal as one) and long text cut short.
    public static func quote(_ text: String, limit: Int = 40) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return out + "…" }
            count += 1
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A whole message as it goes to a terminal: every control character escaped as `quote`
    /// does, except the line breaks and tabs that lay the message out. For messages built by
    /// others (argument-parser's "The value '…' is invalid") that quote what was typed as it is.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && scalar != "\n" && scalar != "\t" {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Control, format and separator characters: what must not be echoed as it is.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }
}

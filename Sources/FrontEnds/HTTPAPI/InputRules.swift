import Catalog

/// What the API accepts in paths and query strings, checked before anything is looked up.
/// Every refusal is an `APIError` with a 4xx status, so no input reaches a query, a file name
/// or the synthesizer unchecked.
enum InputRules {
    /// Longest word, title, category or search text, in Unicode code points.
    static let maxTextLength = 100
    /// Longest request target (path and query) the server reads; longer gets 414.
    static let maxURILength = 2048

    /// A path segment as text: percent-decoded and checked.
    static func pathText(_ raw: Substring?, name: String) throws -> String {
        guard let raw else { throw APIError.badRequest("missing_parameter", "the \(name) is missing.") }
        guard raw.utf8.count <= maxTextLength * 12 else { throw tooLong(name) }
        guard let decoded = TextScanning.percentDecode(raw) else {
            throw APIError.badRequest("invalid_text", "the \(name) is not valid percent-encoded UTF-8.")
        }
        return try text(decoded, name: name)
    }

    /// Free text (a word, a title, a search): not empty, not too long, no control characters,
    /// nothing that could name another file ("/", "\", "..").
    static func text(_ value: String, name: String, pathSafe: Bool = true) throws -> String {
        // Code points, as openapi.json's maxLength counts them, before any trimming.
        guard value.unicodeScalars.count <= maxTextLength else { throw tooLong(name) }
        let trimmed = TextScanning.trimmingSpaces(value)
        guard !trimmed.isEmpty else { throw APIError.badRequest("invalid_text", "the \(name) is empty.") }
        if trimmed.unicodeScalars.contains(where: isForbidden) {
            throw APIError.badRequest("invalid_text", "the \(name) contains control characters.")
        }
        if pathSafe, TextScanning.contains(trimmed, ascii: "/") || TextScanning.contains(trimmed, ascii: "\\")
            || TextScanning.contains(trimmed, ascii: "..") {
            throw APIError.badRequest("path_traversal", "the \(name) may not contain '/', '\\' or '..'.")
        }
        return trimmed
    }

    /// What no input may contain: control characters (C0, DEL, C1), line and paragraph
    /// separators, and the bidirectional controls that make text display differently from
    /// what it is. openapi.json states the same rule as a pattern.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Wider than `isForbidden`: also format, unassigned and private-use characters. Used to
    /// keep quoted input and log values on one plain line.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }

    static func tooLong(_ name: String) -> APIError {
        APIError.badRequest("too_long", "the \(name) is longer than \(maxTextLength) characters.")
    }

    static func level(_ text: String?) throws -> Level? {
        guard let text else { return nil }
        if let level = Level(rawValue: text) { return level }
        let valid = Level.allCases.map(\.rawValue)
        throw APIError.badRequest("bad_level", "'\(clip(text))' is not a level; use one of \(valid.joined(separator: ", ")).",
                                  suggestions: closestOrAll(text, valid))
    }

    static func accent(_ text: String?) throws -> Accent {
        guard let text else { return .british }
        if let accent = Accent(rawValue: text) { return accent }
        throw APIError.badRequest("bad_accent", "'\(clip(text))' is not an accent; use british or american.",
                                  suggestions: closestOrAll(text, Accent.allCases.map(\.rawValue)))
    }

    static func audioFormat(_ text: String?) throws -> ClipFormat {
        guard let text else { return .wav }
        if let format = ClipFormat(rawValue: text) { return format }
        throw APIError.badRequest("bad_format", "'\(clip(text))' is not an audio format; use wav or ogg.",
                                  suggestions: closestOrAll(text, ClipFormat.allCases.map(\.rawValue)))
    }

    /// The valid values nearest to what was typed, or all of them when none is near.
    static func closestOrAll(_ text: String, _ valid: [String]) -> [String] {
        let near = SearchText.closest(to: String(text.lowercased().prefix(maxTextLength)), in: valid)
        return near.isEmpty ? valid : near
    }

    /// An optional whole number within `range`.
    static func integer(_ text: String?, name: String, range: ClosedRange<Int>, default value: Int) throws -> Int {
        guard let text else { return value }
        guard let n = Int(TextScanning.trimmingSpaces(text)) else {
            throw APIError.badRequest("bad_number", "\(name) must be a whole number (got '\(clip(text))').")
        }
        guard range.contains(n) else {
            throw APIError.badRequest("out_of_range", "\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(n)).")
        }
        return n
    }

    /// Text quoted in a message, cut short and without control characters.
    static func clip(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isControl($0) }))
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}

/// The query string, decoded as forms are: `+` is a space, `%XX` a byte. A parameter given
/// twice is refused when asked for (the API takes one value of each).
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]
    private var repeated: Set<String> = []

    init(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if values[name] == nil { values[name] = value } else { repeated.insert(name) }
        }
    }

    static func decode(_ text: Substring) -> String {
        // Undecodable escapes keep their raw text (and are then refused by the checks if bad).
        TextScanning.percentDecode(text, plusAsSpace: true) ?? String(text)
    }

    subscript(_ name: String) -> String? {
        get throws {
            if repeated.contains(name) {
                throw APIError.badRequest("repeated_parameter", "give \(name) once.")
            }
            return values[name]
        }
    }
}

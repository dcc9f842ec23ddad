import Catalog
import TextMatching

/// What vocab accepts from a person or a client, checked before anything is looked up, the
/// same for the command line and HTTP. Every refusal is a `.badInput` failure with a stable
/// code, so no input reaches a query, a file name or the synthesizer unchecked.
public enum InputRules {
    /// Free text (a word, a title, a search): not empty, not longer than `Limits.textLength`
    /// code points, no control characters, and, for text that arrives as a path segment or may
    /// name a file, nothing that could name another one ("/", "\", or all of it "." or "..").
    /// "as ... as" is a word, not a path.
    public static func text(_ value: String, name: String, pathSafe: Bool = true) throws(Failure) -> String {
        // Code points, as openapi.json's maxLength counts them, before any trimming.
        guard value.unicodeScalars.count <= Limits.textLength else {
            throw .tooLong(name)
        }
        let trimmed = trimmingSpaces(value)
        guard !trimmed.isEmpty else { throw .invalidText(name, .empty) }
        if trimmed.unicodeScalars.contains(where: isForbidden) {
            throw .invalidText(name, .controlCharacters)
        }
        if pathSafe, trimmed.contains("/") || trimmed.contains("\\") || trimmed == "." || trimmed == ".." {
            throw Failure(.pathTraversal, "the \(name) may not contain '/' or '\\', nor be '.' or '..'.")
        }
        return trimmed
    }

    /// What no input may contain: control characters (C0, DEL, C1), line and paragraph
    /// separators, and the bidirectional controls that make text display differently from
    /// what it is. openapi.json states the same rule as a pattern.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A level, in any case.
    public static func level(_ text: String) throws(Failure) -> Level {
        if let level = Level(rawValue: text.lowercased()) { return level }
        throw .badLevel(text, valid: Level.allCases.map(\.rawValue))
    }

    /// A part of speech as the catalog names it ("verb", "preposition"), in any case.
    public static func partOfSpeech(_ text: String) throws(Failure) -> String {
        let wanted = text.lowercased()
        if CatalogValidator.partsOfSpeech.contains(wanted) { return wanted }
        let names = CatalogValidator.partsOfSpeech.sorted()
        throw Failure(
            .badPartOfSpeech, "'\(Failure.quote(text))' is not a part of speech; use one of \(names.joined(separator: ", ")).",
            suggestions: closestOrAll(text, names))
    }

    /// An accent, in any case, by name or alias (uk, us, en-gb, cmn…), among those `allowed`
    /// (catalog words are English; Mandarin is for dictionary titles).
    public static func accent(_ text: String, allowed: [Accent] = Accent.english) throws(Failure) -> Accent {
        if let accent = Accent.parse(text), allowed.contains(accent) { return accent }
        let names = allowed.map(\.rawValue)
        let list = names.count == 2 ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        if Accent.parse(text) == .mandarin {
            throw Failure(
                .badAccent, "catalog words are spoken in \(list); Mandarin is for dictionary titles (vocab say TITLE, GET /v1/moe/{title}/audio).",
                suggestions: names)
        }
        throw Failure(
            .badAccent, "'\(Failure.quote(text))' is not an accent; use \(list).",
            suggestions: closestOrAll(text, names))
    }

    /// The range of an item's number: what a JSON number holds exactly (openapi.json states it).
    public static let itemRange: ClosedRange<Int64> = 1...9_007_199_254_740_991
    /// The range of a card's version.
    public static let versionRange = 0...Int(Int32.max)

    /// A saved item's number as a client sends it.
    public static func item(_ id: Int64) throws(Failure) -> Int64 {
        guard itemRange.contains(id) else { throw .badItem() }
        return id
    }

    /// The card version a client read, when it sends one.
    public static func version(_ version: Int?) throws(Failure) -> Int? {
        if let version, !versionRange.contains(version) {
            throw Failure(.badVersion, "the version must be a card's version, as the review queue gives it.")
        }
        return version
    }

    /// The id an offline client gives a rating: 1-100 code points (as openapi.json's maxLength
    /// counts them), no control characters.
    public static func clientID(_ id: String?) throws(Failure) -> String? {
        if let id, id.isEmpty || id.unicodeScalars.count > 100 || id.unicodeScalars.contains(where: isForbidden) {
            throw Failure(.badClientID, "clientId must be 1-100 characters without control characters.")
        }
        return id
    }

    /// A whole number given as text, within `range`.
    public static func integer(_ text: String, name: String, range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let n = Int(trimmingSpaces(text)) else {
            throw Failure(.badNumber, "\(name) must be a whole number (got '\(Failure.quote(text))').")
        }
        return try bounded(n, name: name, range: range)
    }

    /// A pace for speech, as text ("0.75", "1"): a decimal between 0.5 and 1.5, to the hundredth.
    public static func speed(_ text: String) throws(Failure) -> Double {
        let trimmed = trimmingSpaces(text)
        let range = Limits.speedHundredths
        let allowed = "between \(Double(range.lowerBound) / 100) and \(Double(range.upperBound) / 100), e.g. 0.75 for slower speech"
        guard trimmed.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }), let value = Double(trimmed), value.isFinite else {
            throw Failure(.badSpeed, "the speed must be a number \(allowed) (got '\(Failure.quote(text))').")
        }
        let hundredths = (value * 100).rounded()
        guard abs(value * 100 - hundredths) < 1e-6, hundredths >= Double(range.lowerBound), hundredths <= Double(range.upperBound) else {
            throw Failure(.badSpeed, "the speed must be \(allowed), to the hundredth (got '\(Failure.quote(text))').")
        }
        return Double(Int(hundredths)) / 100
    }

    /// A number already parsed, within `range`.
    /// Whether text is an IPv4 address (four numbers 0-255) or an IPv6 one (hex groups and colons).
    public static func isIPAddress(_ text: String) -> Bool {
        let v4 = text.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && Int($0).map { (0...255).contains($0) } == true }) {
            return true
        }
        return text.contains(":") && text.count <= 45 && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    public static func bounded(_ n: Int, name: String, range: ClosedRange<Int>) throws(Failure) -> Int {
        guard range.contains(n) else {
            throw Failure(.outOfRange, "\(name) must be between \(range.lowerBound) and \(range.upperBound) (got \(n)).")
        }
        return n
    }

    /// The valid values nearest to what was typed, or all of them when none is near.
    public static func closestOrAll(_ text: String, _ valid: [String]) -> [String] {
        let near = SearchText.closest(to: String(text.lowercased().prefix(Limits.textLength)), in: valid)
        return near.isEmpty ? valid : near
    }

    /// Without leading and trailing spaces (Unicode space separators). Tabs and other
    /// controls stay, for the checks to refuse.
    ///
    /// With `tabs`, tabs go too: Foundation's `.whitespaces`, which FoundationEssentials lacks,
    /// for the Mandarin listings the launcher shares with the full program.
    public static func trimmingSpaces(_ text: String, tabs: Bool = false) -> String {
        let scalars = text.unicodeScalars
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || (tabs && s == "\t") || s.properties.generalCategory == .spaceSeparator }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }
}

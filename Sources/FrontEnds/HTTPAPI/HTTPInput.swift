import AppCore
import HTTPTransport

/// Input as it arrives over HTTP: percent-encoded path segments and query strings, checked by
/// the same `InputRules` the command line uses.
enum HTTPInput {
    /// A path segment as text: percent-decoded and checked.
    static func pathText(_ raw: Substring?, name: String) throws -> String {
        guard let raw else { throw Failure.missingParameter(name) }
        // Each code point may take 4 bytes, 12 characters percent-encoded.
        guard raw.utf8.count <= Limits.textLength * 12 else { throw Failure.tooLong(name) }
        guard let decoded = TextScanning.percentDecode(raw) else { throw Failure.invalidText(name, .notPercentEncoded) }
        return try InputRules.text(decoded, name: name)
    }
}

/// The query string, decoded as forms are: `+` is a space, `%XX` a byte. A parameter given
/// twice, or with an escape that is not valid percent-encoded UTF-8, is refused when asked for.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]
    private var repeated: Set<String> = []
    private var malformed: Set<String> = []

    init(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = TextScanning.percentDecode(parts[0], plusAsSpace: true) else { continue }
            let value = parts.count > 1 ? TextScanning.percentDecode(parts[1], plusAsSpace: true) : ""
            if values[name] != nil || malformed.contains(name) { repeated.insert(name) }
            if let value { values[name] = value } else { malformed.insert(name) }
        }
    }

    subscript(_ name: String) -> String? {
        get throws {
            if repeated.contains(name) {
                throw Failure(.repeatedParameter, "give \(name) once.")
            }
            if malformed.contains(name) {
                throw Failure.invalidText(name, .notPercentEncoded)
            }
            return values[name]
        }
    }

    /// An optional whole number within `range`.
    func integer(_ name: String, range: ClosedRange<Int>, default value: Int) throws -> Int {
        guard let text = try self[name] else { return value }
        return try InputRules.integer(text, name: name, range: range)
    }
}

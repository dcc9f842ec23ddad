#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextMatching

public struct ValidationIssue: Sendable, Equatable, CustomStringConvertible, Codable {
    public var file: String
    public var word: String?
    public var message: String

    public init(file: String, word: String? = nil, message: String) {
        self.file = file
        self.word = word
        self.message = message
    }

    public var description: String {
        if let word { return "\(file): word '\(word)': \(message)" }
        return "\(file): \(message)"
    }
}

/// Checks category files field by field on the untyped JSON, so every problem is reported
/// with its file and word instead of stopping at the first decoding error.
public struct CatalogValidator: Sendable {
    static let partsOfSpeech: Set<String> = [
        "noun", "verb", "adjective", "adverb", "pronoun", "determiner", "preposition", "conjunction",
        "exclamation", "number", "phrase", "question word", "modal verb",
    ]

    public init() {}

    /// Validates raw file contents keyed by file name; returns the decoded files if there is no issue.
    public func validate(_ files: [(name: String, data: Data)]) -> (files: [CategoryFile], issues: [ValidationIssue]) {
        var issues: [ValidationIssue] = []
        var parsed: [(String, [String: JSONValue])] = []
        for (name, data) in files {
            do {
                guard let object = try JSONValue.parse(Array(data)).object else {
                    issues.append(ValidationIssue(file: name, message: "top level must be a JSON object"))
                    continue
                }
                parsed.append((name, object))
            } catch {
                issues.append(ValidationIssue(file: name, message: "invalid JSON: \(Self.describe(error))"))
            }
        }
        let ids = Set(parsed.compactMap { $0.1["id"]?.string })
        var orders: [Int: String] = [:]
        for (name, object) in parsed {
            issues += checkHeader(object, file: name, orders: &orders)
            guard let words = object["words"]?.array else { continue }
            var seen: Set<String> = []
            for (i, item) in words.enumerated() {
                guard let word = item.object else {
                    issues.append(ValidationIssue(file: name, word: "#\(i + 1)", message: "must be an object"))
                    continue
                }
                issues += checkWord(word, index: i, file: name, fileID: object["id"]?.string, knownCategories: ids, seen: &seen)
            }
        }
        guard issues.isEmpty else { return ([], issues) }
        var decoded: [CategoryFile] = []
        for (name, data) in files {
            do {
                decoded.append(try JSONDecoder().decode(CategoryFile.self, from: data))
            } catch {
                issues.append(ValidationIssue(file: name, message: "cannot decode: \(error)"))
            }
        }
        return (decoded.sorted { $0.order < $1.order }, issues)
    }

    private func checkHeader(_ o: [String: JSONValue], file: String, orders: inout [Int: String]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        func issue(_ m: String) { issues.append(ValidationIssue(file: file, message: m)) }
        let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        if let id = o["id"]?.string, !id.isEmpty {
            if id != stem { issue("id '\(id)' must match the file name '\(stem)'") }
        } else { issue("missing field 'id'") }
        let name = o["name"]?.object
        for lang in ["en", "vi"] where (name?[lang]?.string ?? "").isEmpty { issue("missing field 'name.\(lang)'") }
        if (o["icon"]?.string ?? "").isEmpty { issue("missing field 'icon'") }
        if let color = o["color"]?.string {
            if !Self.isHexColor(color) { issue("color '\(color)' is not #RRGGBB") }
        } else { issue("missing field 'color'") }
        if let order = o["order"]?.integer {
            if let other = orders[order] { issue("order \(order) is also used by \(other)") }
            orders[order] = file
        } else { issue("missing field 'order'") }
        if o["words"]?.array == nil { issue("missing field 'words' (an array)") }
        return issues
    }

    private func checkWord(
        _ w: [String: JSONValue], index: Int, file: String, fileID: String?, knownCategories: Set<String>, seen: inout Set<String>
    ) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let headword = w["word"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let label = headword ?? "#\(index + 1)"
        func issue(_ m: String) { issues.append(ValidationIssue(file: file, word: label, message: m)) }
        func text(_ v: JSONValue?) -> String? { v?.string.flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 } }

        if let headword {
            if !seen.insert(headword.lowercased()).inserted { issue("duplicate headword in this category") }
        } else { issue("missing field 'word'") }

        var levels: [Level] = []
        if let raw = w["levels"]?.array, !raw.isEmpty {
            for value in raw {
                if let s = value.string, let level = Level(rawValue: s) { levels.append(level) } else {
                    issue("unknown level '\(value)' (valid: starters, movers, flyers)")
                }
            }
            if levels.count == raw.count, levels != Array(Level.allCases.drop { $0 != levels.first }) {
                issue("levels \(levels.map(\.rawValue)) must run from the level of introduction to flyers")
            }
        } else { issue("missing field 'levels'") }

        if let cats = w["categories"]?.strings, !cats.isEmpty {
            if let fileID, cats.first != fileID { issue("first category must be the file's own id '\(fileID)'") }
            for c in cats where !knownCategories.contains(c) { issue("unknown category '\(c)'") }
        } else { issue("missing field 'categories'") }

        if let pos = w["pos"]?.strings, !pos.isEmpty {
            for p in pos where !Self.partsOfSpeech.contains(p) { issue("unknown part of speech '\(p)'") }
        } else { issue("missing field 'pos'") }

        let ipa = w["ipa"]?.object
        for accent in Accent.english {
            if let value = text(ipa?[accent.rawValue]) {
                if value.contains("/") || value.contains("[") { issue("ipa.\(accent.rawValue) must not contain slashes or brackets") }
            } else { issue("missing field 'ipa.\(accent.rawValue)'") }
        }
        if text(w["vi"]) == nil { issue("missing field 'vi'") }
        let definition = w["definition"]?.object
        for lang in ["en", "vi"] where text(definition?[lang]) == nil { issue("missing field 'definition.\(lang)'") }

        if let examples = w["examples"]?.object {
            for level in levels where text(examples[level.rawValue]) == nil { issue("missing example for level '\(level.rawValue)'") }
            for key in examples.keys.sorted() {
                if let level = Level(rawValue: key) {
                    if !levels.contains(level), levels.count == (w["levels"]?.array?.count ?? 0) {
                        issue("example for level '\(key)', which is not among the word's levels")
                    }
                } else {
                    issue("example for unknown level '\(key)'")
                }
            }
        } else { issue("missing field 'examples'") }

        if let audio = w["audio"] {
            if let byAccent = audio.object {
                for (accent, refs) in byAccent {
                    if Accent(rawValue: accent)?.isEnglish != true { issue("audio for unknown accent '\(accent)' (british, american)") }
                    guard let refs = refs.object else { issue("audio.\(accent) must be an object"); continue }
                    for key in refs.keys where key != "recorded" && key != "legacy" { issue("audio.\(accent).\(key) is not a tier (recorded, legacy)") }
                }
            } else { issue("audio must be an object keyed by accent") }
        }
        return issues
    }

    static func isHexColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy { $0.isHexDigit }
    }

    static func describe(_ error: Error) -> String { String(describing: error) }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

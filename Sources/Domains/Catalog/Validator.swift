import TextMatching

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        let text = word.map { "\(file): word '\($0)': \(message)" } ?? "\(file): \(message)"
        // Words and values come from the file: a control character in one must reach the
        // terminal as an escape, not as itself.
        guard text.unicodeScalars.contains(where: Self.isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if Self.isControl(scalar) {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
}

/// Checks category files field by field on the untyped JSON, so every problem is reported
/// with its file and word instead of stopping at the first decoding error.
public struct CatalogValidator: Sendable {
    public static let partsOfSpeech: Set<String> = [
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
                let value = try JSONValue.parse(Array(data))
                guard let object = value.object else {
                    issues.append(ValidationIssue(file: name, message: "top level: expected an object, found \(value.kind)"))
                    continue
                }
                parsed.append((name, object))
            } catch {
                issues.append(ValidationIssue(file: name, message: "invalid JSON: \(Self.describe(error))"))
            }
        }
        let ids = Set(parsed.compactMap { $0.1["id"]?.string })
        var orders: [Int: String] = [:]
        var entryIDs: Set<String> = []
        var former: [(id: String, file: String, word: String)] = []
        for (name, object) in parsed {
            issues += checkHeader(object, file: name, orders: &orders)
            guard let words = object["words"]?.array else { continue }
            var seen: Set<String> = []
            for (i, item) in words.enumerated() {
                guard let word = item.object else {
                    issues.append(ValidationIssue(file: name, word: "#\(i + 1)", message: "expected an object, found \(item.kind)"))
                    continue
                }
                let fileID = object["id"]?.string
                issues += checkWord(word, index: i, file: name, fileID: fileID, knownCategories: ids, seen: &seen)
                guard let fileID, let headword = word["word"]?.string else { continue }
                entryIDs.insert(Word.id(category: fileID, headword: headword, key: word["key"]?.string))
                guard let list = word["formerly"] else { continue }
                let names = list.array?.compactMap(\.string) ?? []
                if names.isEmpty || names.count != list.array?.count {
                    issues.append(ValidationIssue(file: name, word: headword, message: "formerly: expected an array of entry ids"))
                }
                former += names.map { ($0, name, headword) }
            }
        }
        issues += Self.checkSenses(parsed)
        // A former id names one entry for ever: never an entry of today, never two entries.
        var claimed: Set<String> = []
        for (id, file, word) in former {
            if entryIDs.contains(id) {
                issues.append(ValidationIssue(file: file, word: word, message: "formerly '\(id)' is the id of an entry: a former id is never used again"))
            } else if !claimed.insert(id).inserted {
                issues.append(ValidationIssue(file: file, word: word, message: "formerly '\(id)' is claimed by another entry too"))
            } else if id.split(separator: "/").count != 2 {
                issues.append(ValidationIssue(file: file, word: word, message: "formerly '\(id)' is not an entry id (<category>/<word>)"))
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

    /// A headword with more than one entry in the catalog (in any files, compared without case):
    /// each entry says which sense it is, in both languages, and no two say the same (within one
    /// file, the key rule of `checkWord` asks for the sense). A learner
    /// picking `bat` must see which bat, and a card must show the one saved. For the same reason
    /// no two senses share a picture (a drawing or an emoji): a child who cannot read the sense
    /// tells the two bats apart by their pictures alone.
    static func checkSenses(_ parsed: [(String, [String: JSONValue])]) -> [ValidationIssue] {
        var byHeadword: [String: [(file: String, word: String, sense: [String: JSONValue]?, pictures: [String])]] = [:]
        for (file, object) in parsed {
            for item in object["words"]?.array ?? [] {
                guard let word = item.object, let headword = word["word"]?.string, !headword.isEmpty else { continue }
                let pictures = [word["image"]?.string, word["picture"]?.string].compactMap { $0 }
                byHeadword[headword.lowercased(), default: []].append((file, headword, word["sense"]?.object, pictures))
            }
        }
        var issues: [ValidationIssue] = []
        for (headword, entries) in byHeadword.sorted(by: { $0.key < $1.key }) where entries.count > 1 {
            var labels: [String: [String: [String]]] = ["en": [:], "vi": [:]]
            for entry in entries {
                guard let sense = entry.sense else {
                    // Two entries in one file are the file's own rule (a key, and a sense on it).
                    if entries.count(where: { $0.file == entry.file }) > 1 { continue }
                    issues.append(
                        ValidationIssue(file: entry.file, word: entry.word, message: "'\(headword)' has \(entries.count) entries: each needs a sense {en, vi}"))
                    continue
                }
                for lang in ["en", "vi"] {
                    let text = String((sense[lang]?.string ?? "").lowercased().split(separator: " ").joined(separator: " "))
                    if !text.isEmpty { labels[lang]![text, default: []].append(entry.file) }
                }
            }
            for lang in ["en", "vi"] {
                for (text, files) in labels[lang]!.sorted(by: { $0.key < $1.key }) where files.count > 1 {
                    issues.append(
                        ValidationIssue(
                            file: files.joined(separator: ", "), word: headword,
                            message: "\(files.count) entries share the sense.\(lang) '\(text)'"))
                }
            }
            var shown: [String: [String]] = [:]
            for entry in entries {
                for picture in Set(entry.pictures) { shown[picture, default: []].append(entry.file) }
            }
            for (picture, files) in shown.sorted(by: { $0.key < $1.key }) where files.count > 1 {
                issues.append(
                    ValidationIssue(
                        file: Array(Set(files)).sorted().joined(separator: ", "), word: headword,
                        message: "\(files.count) senses share the picture '\(picture)': each needs its own, or none"))
            }
        }
        return issues
    }

    private func checkHeader(_ o: [String: JSONValue], file: String, orders: inout [Int: String]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let fields = Fields(o) { issues.append(ValidationIssue(file: file, message: $0)) }
        let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        if let id = fields.text("id"), id != stem { fields.report("id '\(id)' must match the file name '\(stem)'") }
        if let name = fields.object("name") {
            for lang in ["en", "vi"] { _ = name.text(lang) }
        }
        _ = fields.text("icon")
        if let color = fields.text("color"), !Self.isHexColor(color) { fields.report("color '\(color)' is not #RRGGBB") }
        if let order = fields.wholeNumber("order") {
            if let other = orders[order] { fields.report("order \(order) is also used by \(other)") }
            orders[order] = file
        }
        _ = fields.value("words", expected: "an array") { $0.array }
        return issues
    }

    private func checkWord(
        _ w: [String: JSONValue], index: Int, file: String, fileID: String?, knownCategories: Set<String>, seen: inout Set<String>
    ) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let headword = w["word"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let label = headword ?? "#\(index + 1)"
        let fields = Fields(w) { issues.append(ValidationIssue(file: file, word: label, message: $0)) }
        func issue(_ m: String) { fields.report(m) }

        // The entry's id is "<category>/<key or the headword's slug>": two entries of one headword
        // in one file need a key on one of them, and each key a sense to tell the entries apart.
        var key: String?
        if w["key"] != nil, let text = fields.text("key") {
            if let headword, !Self.isKey(text, of: headword) {
                issue("key '\(text)' must be '\(Word.slug(headword))-' followed by lower-case letters, digits and hyphens")
            }
            if w["sense"] == nil { issue("key '\(text)' needs a sense to tell the entries apart") }
            key = text
        }
        if fields.text("word") != nil, let headword, !seen.insert(Word.id(category: fileID ?? "", headword: headword, key: key)).inserted {
            issue("duplicate headword in this category (a second sense needs a key and a sense)")
        }

        var levels: [Level] = []
        let rawLevels = fields.strings("levels")
        if let rawLevels {
            for value in rawLevels {
                if let level = Level(rawValue: value) {
                    levels.append(level)
                } else {
                    issue("unknown level '\(value)' (valid: starters, movers, flyers)")
                }
            }
            if levels.count == rawLevels.count, levels != Array(Level.allCases.drop { $0 != levels.first }) {
                issue("levels \(levels.map(\.rawValue)) must run from the level of introduction to flyers")
            }
        }

        if let cats = fields.strings("categories") {
            if let fileID, cats.first != fileID { issue("first category must be the file's own id '\(fileID)'") }
            for c in cats where !knownCategories.contains(c) { issue("unknown category '\(c)'") }
        }

        if let pos = fields.strings("pos") {
            for p in pos where !Self.partsOfSpeech.contains(p) { issue("unknown part of speech '\(p)'") }
        }

        if let ipa = fields.object("ipa") {
            for accent in Accent.english {
                if let value = ipa.text(accent.rawValue), value.contains("/") || value.contains("[") {
                    issue("ipa.\(accent.rawValue) must not contain slashes or brackets")
                }
            }
        }
        _ = fields.text("vi")
        if let definition = fields.object("definition") {
            for lang in ["en", "vi"] { _ = definition.text(lang) }
        }

        if let examples = fields.object("examples") {
            for level in levels where examples.object[level.rawValue] == nil { issue("missing example for level '\(level.rawValue)'") }
            for key in examples.object.keys.sorted() {
                _ = examples.text(key)
                if let level = Level(rawValue: key) {
                    if !levels.contains(level), let rawLevels, levels.count == rawLevels.count {
                        issue("example for level '\(key)', which is not among the word's levels")
                    }
                } else {
                    issue("example for unknown level '\(key)'")
                }
            }
        }

        if w["picture"] != nil, let picture = fields.text("picture"), !EmojiTable.contains(picture) {
            issue("picture '\(picture)' is not one fully-qualified emoji of Emoji \(EmojiTable.version) (what Debian 12's Noto Color Emoji draws)")
        }
        if w["image"] != nil, let image = fields.text("image") {
            if let problem = Self.imageProblem(image, emoji: w["picture"]?.string) { issue(problem) }
        }
        if w["sense"] != nil, let sense = fields.object("sense") {
            for lang in ["en", "vi"] { _ = sense.text(lang) }
        }

        if w["audio"] != nil, let byAccent = fields.object("audio", expected: "an object keyed by accent") {
            for accent in byAccent.object.keys.sorted() {
                if Accent(rawValue: accent)?.isEnglish != true { issue("audio for unknown accent '\(accent)' (british, american)") }
                guard let refs = byAccent.object(accent, expected: "an object keyed by tier (recorded, legacy)") else { continue }
                for key in refs.object.keys.sorted() {
                    guard key == "recorded" || key == "legacy" else {
                        issue("audio.\(accent).\(key) is not a tier (recorded, legacy)")
                        continue
                    }
                    guard let reference = refs.text(key) else { continue }
                    if let problem = Self.clipReferenceProblem(reference, tier: key) {
                        issue("audio.\(accent).\(key) '\(reference)' \(problem)")
                    }
                }
            }
        }
        return issues
    }

    /// The picture sets `Pictures/` holds, each a folder of its own (`Pictures/README.md`).
    public static let pictureSets = ["openmoji", "mulberry"]

    /// What is wrong with an entry's `image`, if anything: a set's folder and an SVG's plain
    /// file name; an OpenMoji file is the drawing of the entry's emoji (its code points).
    static func imageProblem(_ image: String, emoji: String?) -> String? {
        let parts = image.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, pictureSets.contains(String(parts[0])), parts[1].hasSuffix(".svg"), parts[1].count > 4,
            parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }), !parts[1].hasPrefix(".")
        else {
            return "image '\(image)' must be <set>/<name>.svg, the set one of \(pictureSets.joined(separator: ", "))"
        }
        if parts[0] == "openmoji" {
            // OpenMoji's extras (a bottle, a nurse) are drawings of its own, named by a
            // private-use code point (U+E000–U+F8FF): no emoji shows them, so the entry has none.
            let name = parts[1].dropLast(4)
            if let code = UInt32(name, radix: 16), (0xE000...0xF8FF).contains(code), name.count == 4 {
                return emoji == nil ? nil : "image '\(image)' is an OpenMoji extra, which no emoji shows: the entry's emoji \(emoji!) has its own drawing"
            }
            guard let emoji else { return "image '\(image)' is an OpenMoji drawing, so the entry needs its emoji as picture" }
            let points = emoji.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.map {
                String(repeating: "0", count: max(0, 4 - $0.count)) + $0
            }
            let names = [points.joined(separator: "-"), points.filter { $0 != "FE0F" }.joined(separator: "-")].map { $0 + ".svg" }
            if !names.contains(String(parts[1])) { return "image '\(image)' is not OpenMoji's drawing of \(emoji) (\(names[1]))" }
        }
        return nil
    }

    /// A key names a second entry of `headword` in its file: "so-starting" for "so".
    static func isKey(_ key: String, of headword: String) -> Bool {
        let prefix = Word.slug(headword) + "-"
        guard key.hasPrefix(prefix), key.count > prefix.count, !key.hasSuffix("-") else { return false }
        return key.dropFirst(prefix.count).allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Why a clip reference may not be used, or nil. A clip is a file under Audio/, named
    /// relative to it (the reader refuses anything else too, but a category file that names
    /// /etc/passwd is a mistake, or worse, and should fail validation); a recorded clip may
    /// also be an http(s) URL.
    static func clipReferenceProblem(_ reference: String, tier: String) -> String? {
        let lowered = reference.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return tier == "recorded" ? nil : "is a URL; legacy clips are files under Audio/"
        }
        if reference.contains("\\") { return "contains a backslash; use '/' between folders" }
        if reference.hasPrefix("/") || reference.hasPrefix("~") { return "is an absolute path; name the file relative to Audio/" }
        if reference.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." }) {
            return "leaves Audio/ ('..'); name a file inside it"
        }
        if reference.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "contains control characters" }
        if reference.contains(":") { return "is neither a path under Audio/ nor an http(s) URL" }
        return nil
    }

    static func isHexColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy { $0.isHexDigit }
    }

    static func describe(_ error: Error) -> String { String(describing: error) }
}

/// The fields of one JSON object, read with their expected types: a field that is missing,
/// empty or of another type is reported by its path ("ipa.british") and read as nil, so each
/// check below runs only on values of the right shape.
private struct Fields {
    let object: [String: JSONValue]
    let path: String
    let report: (String) -> Void

    init(_ object: [String: JSONValue], path: String = "", report: @escaping (String) -> Void) {
        self.object = object
        self.path = path
        self.report = report
    }

    /// The value of `key` if `extract` accepts it; otherwise the problem is reported.
    func value<T>(_ key: String, expected: String, _ extract: (JSONValue) -> T?) -> T? {
        guard let value = object[key] else {
            report("missing field '\(path)\(key)'")
            return nil
        }
        guard let typed = extract(value) else {
            report("field '\(path)\(key)': expected \(expected), found \(value.kind)")
            return nil
        }
        return typed
    }

    /// A string with more than spaces in it, and not longer than a field may be.
    func text(_ key: String) -> String? {
        guard let text = value(key, expected: "a string", \.string) else { return nil }
        if text.trimmingWhitespace.isEmpty {
            report("field '\(path)\(key)' is empty")
            return nil
        }
        guard fits(text, "field '\(path)\(key)'") else { return nil }
        return text
    }

    /// Every field of every word is shown on a card or a screen, and the longest in the real
    /// catalog has 116 characters: a field of thousands is a mistake (a pasted file, a runaway
    /// script), and one of megabytes would make every index of the catalog slow.
    static let maxFieldCharacters = 1_000

    func fits(_ text: String, _ name: String) -> Bool {
        // utf8.count first: cheap, and a string of n characters has at least n bytes.
        guard text.utf8.count > Self.maxFieldCharacters, text.count > Self.maxFieldCharacters else { return true }
        report("\(name) has \(text.count) characters, more than the \(Self.maxFieldCharacters) a field may have")
        return false
    }

    /// A whole number ("order": 5, not "5" or 5.5).
    func wholeNumber(_ key: String) -> Int? {
        if case .number = object[key] { return value(key, expected: "a whole number", \.integer) }
        return value(key, expected: "a number", \.integer)
    }

    /// A non-empty array of strings; an element of another type is reported with its position.
    func strings(_ key: String) -> [String]? {
        guard let array = value(key, expected: "an array of strings", \.array) else { return nil }
        if array.isEmpty {
            report("field '\(path)\(key)' is empty")
            return nil
        }
        var strings: [String] = []
        for (i, element) in array.enumerated() {
            if let s = element.string {
                if fits(s, "field '\(path)\(key)' item \(i + 1)") { strings.append(s) }
            } else {
                report("field '\(path)\(key)' item \(i + 1): expected a string, found \(element.kind)")
            }
        }
        return strings.count == array.count ? strings : nil
    }

    /// An object, whose own fields are read with this one's path in front.
    func object(_ key: String, expected: String = "an object") -> Fields? {
        value(key, expected: expected, \.object).map { Fields($0, path: path + key + ".", report: report) }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

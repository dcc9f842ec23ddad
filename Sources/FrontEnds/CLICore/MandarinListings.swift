import AppCore
import Mandarin

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The text and JSON of `vocab lookup`, `strokes`, `radical` and `search --pinyin/--bopomofo`.
// Shared by the argument-parser commands and the launcher's fast path, so both print the same
// bytes; the launcher answers these without the rest of the program (see FastPath).

/// `vocab lookup TITLE` (every reading with its senses) and `vocab lookup TITLE --compounds`.
public struct MOELookupListing: Sendable {
    public var title: String
    public var compounds = false
    public var readingStyle: ReadingStyle = .both
    public var limit = Limits.defaultCharacters
    public var offset = 0
    public var json = false

    public init(
        title: String, compounds: Bool = false, readingStyle: ReadingStyle = .both,
        limit: Int = Limits.defaultCharacters, offset: Int = 0, json: Bool = false
    ) {
        self.title = title
        self.compounds = compounds
        self.readingStyle = readingStyle
        self.limit = limit
        self.offset = offset
        self.json = json
    }

    /// The launcher's answer, from the dictionary alone: a title it lacks throws, and the full
    /// program then reports the miss (with suggestions, and a hint when the catalog has it).
    public func run(in environment: VocabEnvironment) throws {
        let dictionary = try MOEDictionary(path: environment.home.moeDatabase)
        if compounds { return try writeCompounds(from: dictionary) }
        try write(try dictionary.lookup(title))
    }

    public func write(_ entries: [DictionaryEntry]) throws {
        if json {
            try Output.json(MOEEntries(title: entries.first?.title ?? title, entries: entries))
            return
        }
        let display = ReadingDisplay(style: readingStyle)
        Output.line(entries.map { EntryText.lines($0, sound: display.sound).joined(separator: "\n") }.joined(separator: "\n\n"))
    }

    public func writeCompounds(from dictionary: MOEDictionary) throws {
        let typed = InputRules.trimmingSpaces(title, tabs: true)
        let list = try dictionary.compounds(of: typed, limit: limit, offset: offset)
        if json {
            try Output.json(CompoundPage(title: typed, list: list))
            return
        }
        guard !list.characters.isEmpty else {
            Output.line(
                list.total == 0
                    ? "No words contain \(MissingGlyph.shown(typed))."
                    : "No words past \(list.offset): \(MOEText.counted(list.total, "word")) contain \(MissingGlyph.shown(typed)).")
            return
        }
        var lines = ["\(MOEText.counted(list.total, "word")) contain \(MissingGlyph.shown(typed)), those that start with it first:"]
        let titleWidth = min(16, MOEText.titleWidth(list))
        for c in list.characters {
            lines.append("  \(Output.pad(MissingGlyph.shown(c.title), titleWidth))\(MOEText.rest(c))")
        }
        MOEText.print(lines, more: list)
    }
}

/// `vocab strokes COUNT [--radical R]`: a page of the characters with that many strokes.
public struct MOEStrokesListing: Sendable {
    public var strokes: Int
    public var radical: String?
    public var limit = Limits.defaultCharacters
    public var offset = 0
    public var json = false

    public init(strokes: Int, radical: String? = nil, limit: Int = Limits.defaultCharacters, offset: Int = 0, json: Bool = false) {
        self.strokes = strokes
        self.radical = radical
        self.limit = limit
        self.offset = offset
        self.json = json
    }

    /// The stroke count the command takes: one word, a whole number of 1 or more.
    public static func count(_ words: [String]) -> Int? {
        guard words.count == 1, let value = Int(InputRules.trimmingSpaces(words[0], tabs: true)), value > 0 else { return nil }
        return value
    }

    public func run(in environment: VocabEnvironment) throws {
        try run(in: try MOEDictionary(path: environment.home.moeDatabase))
    }

    public func run(in dictionary: MOEDictionary) throws {
        let list = try dictionary.characters(strokes: strokes, radical: radical, limit: limit, offset: offset)
        if json {
            try Output.json(CharacterPage(strokes: strokes, radical: radical, list: list))
            return
        }
        let under = radical.map { " under the radical \(list.characters.first?.radical ?? $0)" } ?? ""
        guard !list.characters.isEmpty else {
            Output.line(
                list.total == 0
                    ? "No characters have \(MOEText.counted(strokes, "stroke"))\(under)."
                    : "No characters past \(list.offset): \(MOEText.counted(list.total, "character")) have \(MOEText.counted(strokes, "stroke"))\(under).")
            return
        }
        var lines = ["\(MOEText.counted(list.total, "character")) with \(MOEText.counted(strokes, "stroke"))\(under):"]
        let titleWidth = MOEText.titleWidth(list)
        for c in list.characters {
            let position = c.radical.map { "\($0) +\(c.nonRadicalStrokeCount ?? 0)" } ?? ""
            lines.append("  \(Output.pad(MissingGlyph.shown(c.title), titleWidth))\(Output.pad(position, 8))\(MOEText.rest(c))")
        }
        MOEText.print(lines, more: list)
    }
}

/// `vocab radical R`: a page of the characters under a radical, by the strokes beyond it. A
/// radical with none throws (AppCore's RadicalListing), with a hint when the character is
/// itself filed under another radical.
public struct MOERadicalListing: Sendable {
    public var radical: String
    public var limit = Limits.defaultCharacters
    public var offset = 0
    public var json = false

    public init(radical: String, limit: Int = Limits.defaultCharacters, offset: Int = 0, json: Bool = false) {
        self.radical = radical
        self.limit = limit
        self.offset = offset
        self.json = json
    }

    public func run(in environment: VocabEnvironment) throws {
        try run(in: try MOEDictionary(path: environment.home.moeDatabase))
    }

    public func run(in dictionary: MOEDictionary) throws {
        let typed = InputRules.trimmingSpaces(radical, tabs: true)
        let list = try RadicalListing.page(in: dictionary, radical: typed, limit: limit, offset: offset)
        if json {
            try Output.json(CharacterPage(strokes: nil, radical: radical, list: list))
            return
        }
        guard let first = list.characters.first else {
            Output.line("No characters past \(list.offset): \(MOEText.counted(list.total, "character")) under the radical \(typed).")
            return
        }
        var lines = ["\(MOEText.counted(list.total, "character")) under the radical \(first.radical ?? typed), by strokes beyond the radical:"]
        let titleWidth = MOEText.titleWidth(list)
        for c in list.characters {
            let strokes = c.strokeCount.map(String.init) ?? ""
            lines.append(
                "  \(Output.pad("+\(c.nonRadicalStrokeCount ?? 0)", 5))\(Output.pad(MissingGlyph.shown(c.title), titleWidth))\(Output.pad(strokes, 4))\(MOEText.rest(c))"
            )
        }
        MOEText.print(lines, more: list)
    }
}

/// `vocab search --pinyin/--bopomofo`: a page of the readings that match.
public struct MOEReadingSearch: Sendable {
    public var query: ReadingQuery
    public var limit = Limits.defaultSearch
    public var offset = 0
    public var readingStyle: ReadingStyle = .both
    public var json = false

    public init(query: ReadingQuery, limit: Int = Limits.defaultSearch, offset: Int = 0, readingStyle: ReadingStyle = .both, json: Bool = false) {
        self.query = query
        self.limit = limit
        self.offset = offset
        self.readingStyle = readingStyle
        self.json = json
    }

    public func run(in environment: VocabEnvironment) throws {
        try run(in: try MOEDictionary(path: environment.home.moeDatabase))
    }

    public func run(in dictionary: MOEDictionary) throws {
        let list = try query.run(in: dictionary, limit: limit, offset: offset)
        if json {
            try Output.json(ReadingSearchPage(query: query, list: list))
            return
        }
        let typed = Failure.quote(query.pinyin ?? query.bopomofo ?? "")
        guard !list.readings.isEmpty else {
            Output.line(
                list.total == 0
                    ? "No readings match '\(typed)'."
                    : "No readings past \(list.offset): \(MOEText.counted(list.total, "reading")) match '\(typed)'.")
            return
        }
        let display = ReadingDisplay(style: readingStyle)
        let matches = list.readings
        let titleWidth = min(12, matches.map { Output.displayWidth(MissingGlyph.shown($0.title)) }.max() ?? 0) + 2
        let pinyinWidth = min(24, matches.map { Output.displayWidth($0.pinyin ?? "") }.max() ?? 0) + 2
        let bopomofoWidth = min(24, matches.map { Output.displayWidth($0.bopomofo ?? "") }.max() ?? 0) + 2
        var lines = ["\(MOEText.counted(list.total, "reading")) match '\(typed)'\(query.tones == .exact ? ", tones as given" : ""):"]
        lines += matches.map { m in
            Output.pad(MissingGlyph.shown(m.title), titleWidth)
                + (display.style == .bopomofo ? "" : display.padded(m.pinyin ?? "", pinyin: true, pinyinWidth))
                + (display.style == .pinyin ? "" : display.padded(m.bopomofo ?? "", pinyin: false, bopomofoWidth))
                + MOEText.gloss(m.definition)
        }
        if let more = Paging.moreLine(total: list.total, offset: list.offset, shown: matches.count) { lines.append(more) }
        Output.line(lines.joined(separator: "\n"))
    }
}

/// Which readings the Mandarin commands print.
public enum ReadingStyle: String, Sendable, CaseIterable {
    case pinyin, bopomofo, both
}

/// Pinyin and bopomofo coloured by tone in a terminal: 1 red, 2 green, 3 blue, 4 magenta,
/// neutral grey (ANSI 31, 32, 34, 35, 90), the scheme of Pleco and most learners' tools. Off when
/// standard output is not a terminal or NO_COLOR is set (https://no-color.org);
/// CLICOLOR_FORCE=1 turns it on for a pipe.
public struct ReadingDisplay: Sendable {
    public let style: ReadingStyle
    public let colour: Bool

    public init(style: ReadingStyle, environment: [String: String] = ProcessInfo.processInfo.environment, terminal: Bool = Output.stdoutIsTerminal) {
        self.style = style
        if let no = environment["NO_COLOR"], !no.isEmpty {
            colour = false
        } else if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
            colour = true
        } else {
            colour = terminal
        }
    }

    static let codes = [1: "31", 2: "32", 3: "34", 4: "35", 5: "90"]

    /// One reading, coloured syllable by syllable when colour is on.
    public func paint(_ text: String, pinyin: Bool) -> String {
        guard colour else { return text }
        return ToneSyllables.split(text, pinyin: pinyin).map { piece in
            guard let tone = piece.tone, let code = Self.codes[tone] else { return piece.text }
            return "\u{1B}[\(code)m\(piece.text)\u{1B}[0m"
        }.joined()
    }

    /// `text` painted, then padded to `width` columns (escapes take no room on screen).
    public func padded(_ text: String, pinyin: Bool, _ width: Int) -> String {
        paint(text, pinyin: pinyin) + String(repeating: " ", count: max(0, width - Output.displayWidth(text)))
    }

    /// The pronunciation line of `vocab lookup`.
    public func sound(_ reading: Reading) -> String {
        var parts: [String] = []
        if style != .bopomofo, let p = reading.pinyin { parts.append(paint(p, pinyin: true)) }
        if style != .pinyin, let b = reading.bopomofo { parts.append(paint(b, pinyin: false)) }
        return parts.joined(separator: "  ")
    }
}

/// Shared pieces of the MOE listings.
public enum MOEText {
    /// Wide enough for every title shown: characters take two columns, but the dictionary also
    /// has placeholders such as {[8f51]} for glyphs Unicode lacks.
    static func titleWidth(_ list: CharacterList) -> Int {
        (list.characters.map { Output.displayWidth(MissingGlyph.shown($0.title)) }.max() ?? 2) + 2
    }

    /// Readings, then the first sense.
    static func rest(_ c: CharacterSummary) -> String {
        Output.pad(c.pinyin.joined(separator: ", "), 24) + gloss(c.definition)
    }

    /// The first sense, cut to fit a terminal line.
    public static func gloss(_ text: String?) -> String {
        guard let text = text.map(MissingGlyph.shown) else { return "" }
        var out = ""
        var width = 0
        for ch in text {
            width += Output.displayWidth(String(ch))
            if width > 40 { return out + "…" }
            out.append(ch)
        }
        return out
    }

    /// Writes a listing in one go (one write, not one per line), with a hint when it was cut.
    static func print(_ lines: [String], more list: CharacterList) {
        var lines = lines
        if let more = Paging.moreLine(total: list.total, offset: list.offset, shown: list.characters.count) { lines.append(more) }
        Output.line(lines.joined(separator: "\n"))
    }

    /// (1, "stroke") → "1 stroke", (283, "character") → "283 characters".
    public static func counted(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

    /// 163087 → "163,087".
    public static func grouped(_ n: Int) -> String { Paging.grouped(n) }
}

import CLICore
import App
import AppCore
import ArgumentParser
import FileAccess
import Foundation
import Mandarin

// Commands for the Taiwan Ministry of Education's revised Mandarin dictionary (重編國語辭典修訂本).
// The dictionary is imported once from a local dict-revised.json; vocab never downloads it.

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a dictionary file into the vocab home folder.",
        discussion: """
            Examples:
              vocab import moe dict-revised.json
            """,
        subcommands: [ImportMOECommand.self])
}

struct ImportMOECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moe",
        abstract: "Import the MOE revised Mandarin dictionary (dict-revised.json).",
        discussion: """
            Reads the dict-revised.json array (about 163,000 entries) and builds moe.sqlite in the \
            home folder for 'vocab lookup', 'vocab strokes', 'vocab radical' and \
            'vocab search --pinyin'. A new import replaces the previous one only once it is \
            complete; if the file is not valid, the error gives its line and column and the \
            previous import stays as it was. A file with no entries, or with fewer than half \
            the entries of the current import, is refused unless --force is given. Decompress \
            a .xz download first with 'xz -dk'.

            Examples:
              vocab import moe ~/Downloads/dict-revised.json
              vocab import moe dict-revised.json --json
              vocab import moe my-small-dictionary.json --force
            """)

    @Argument(help: ArgumentHelp("The dict-revised.json file.", valueName: "path"))
    var path: String

    @Flag(name: .long, help: "Import even a file with no entries or fewer than half of the current import's.")
    var force = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let env = options.environment
        do {
            try DurableFile.createDirectory(env.home.root)
        } catch {
            throw MOEError.writeFailed("cannot create the home folder \(env.home.root)")
        }
        let display = MOEProgressLine(enabled: Output.stderrIsTerminal, name: (path as NSString).lastPathComponent)
        let importer = MOEImporter(databasePath: env.home.moeDatabase, force: force, progress: display.show)
        let summary: ImportSummary
        do {
            // The progress line goes before any message, success or error.
            defer { display.clear() }
            summary = try importer.importFile(at: path)
        }
        if options.json {
            try Output.json(summary)
            return
        }
        Output.line("Imported \(MOEText.grouped(summary.entries)) entries, \(MOEText.grouped(summary.heteronyms)) readings and "
            + "\(MOEText.grouped(summary.definitions)) definitions in \(String(format: "%.2f", summary.seconds)) s into \(summary.database)")
    }
}

/// A one-line progress display on standard error, redrawn in place; silent unless stderr is a
/// terminal, so logs and pipes never see carriage returns.
final class MOEProgressLine {
    private let enabled: Bool
    private let name: String
    private var lastShown = ""

    init(enabled: Bool, name: String) {
        self.enabled = enabled
        self.name = name
    }

    func show(_ progress: ImportProgress) {
        guard enabled else { return }
        let text: String
        switch progress {
        case .reading(let fraction, let entries):
            text = "Importing \(name): \(Int(fraction * 100))% (\(MOEText.grouped(entries)) entries)"
        case .indexing: text = "Importing \(name): building indexes…"
        case .finishing: text = "Importing \(name): saving…"
        }
        guard text != lastShown else { return }
        lastShown = text
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    func clear() {
        guard enabled, !lastShown.isEmpty else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        lastShown = ""
    }
}

struct LookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look up a Mandarin word or character: every reading with its senses.",
        discussion: """
            Shows each pronunciation in pinyin and bopomofo, its senses grouped by part of speech \
            (〔名〕 noun, 〔動〕 verb…), with examples, citations, synonyms and antonyms, from the \
            MOE revised dictionary in Traditional characters. Run 'vocab import moe PATH' once first.

            Examples:
              vocab lookup 行
              vocab lookup 行李
              vocab lookup 行 --json
              vocab lookup 行 --compounds --limit 20
              vocab lookup 行 --reading-style bopomofo

            In a terminal, readings are coloured by tone: 1 red, 2 green, 3 blue, 4 magenta, \
            neutral grey (NO_COLOR turns it off, CLICOLOR_FORCE=1 on for a pipe).
            """)

    @Argument(help: "The word or character, in Traditional characters.")
    var title: String

    @Flag(name: .long, help: "List the words that start with or contain it instead, a page at a time.")
    var compounds = false

    @Option(name: .customLong("reading-style"), help: "Readings shown: pinyin, bopomofo or both.")
    var readingStyle: ReadingStyle = .both

    @Option(name: .long, parsing: .unconditional, help: "With --compounds: at most this many words (\(Limits.characters.lowerBound)-\(Limits.characters.upperBound)).")
    var limit: Int = Limits.defaultCharacters

    @Option(name: .long, parsing: .unconditional, help: "With --compounds: skip this many words first.")
    var offset: Int = 0

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(title, name: "word or character") }
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: Limits.characters) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
    }

    func run() async throws {
        if compounds { return try listCompounds() }
        let entries = try await options.services.mandarinEntries(title)
        if options.json {
            try Output.json(MOEEntries(title: entries.first?.title ?? title, entries: entries))
            return
        }
        let display = ReadingDisplay(style: readingStyle)
        Output.line(entries.map { EntryText.lines($0, sound: display.sound).joined(separator: "\n") }.joined(separator: "\n\n"))
    }

    private func listCompounds() throws {
        let typed = title.trimmingCharacters(in: .whitespaces)
        let list = try options.services.mandarin().compounds(of: typed, limit: limit, offset: offset)
        if options.json {
            try Output.json(CompoundPage(title: typed, list: list))
            return
        }
        guard !list.characters.isEmpty else {
            Output.line(list.total == 0 ? "No words contain \(MissingGlyph.shown(typed))."
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

struct StrokesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strokes",
        abstract: "List the characters with a given total number of strokes.",
        usage: "vocab strokes <count> [--radical <radical>] [--limit <limit>] [--offset <offset>] [--json]",
        discussion: """
            Characters come in dictionary order, each with its radical and the strokes beyond \
            it, its readings and its first sense. --radical narrows the list to one radical.

            Examples:
              vocab strokes 6
              vocab strokes 9 --radical 行
              vocab strokes 6 --limit 20 --json
              vocab strokes 6 --limit 20 --offset 20
            """)

    /// Collected as unrecognized input so that "-3" reaches validate() as a count, where a plain
    /// message explains it, instead of being rejected as an unknown option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The total number of strokes (1 or more).", valueName: "count"))
    var words: [String] = []

    private var count: String { words.joined(separator: " ") }

    @Option(name: .long, help: "Only characters under this radical (水, or a variant such as 氵).")
    var radical: String?

    @Option(name: .long, parsing: .unconditional, help: "At most this many characters (\(Limits.characters.lowerBound)-\(Limits.characters.upperBound)).")
    var limit: Int = Limits.defaultCharacters

    @Option(name: .long, parsing: .unconditional, help: "Skip this many characters first (\(Limits.offset.lowerBound)-\(Limits.offset.upperBound)).")
    var offset: Int = 0

    @OptionGroup var options: GlobalOptions

    /// The count, once validate() has accepted it.
    var strokes: Int { Int(count.trimmingCharacters(in: .whitespaces)) ?? 0 }

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("Give a stroke count, like 6.") }
        guard words.count == 1, let value = Int(count.trimmingCharacters(in: .whitespaces)), value > 0 else {
            throw ValidationError("The stroke count must be a whole number of 1 or more, like 6 (got '\(Failure.quote(count))').")
        }
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: Limits.characters) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
        if let radical { try MOERadicalInput.validate(radical) }
    }

    func run() async throws {
        let list = try options.services.mandarin().characters(strokes: strokes, radical: radical, limit: limit, offset: offset)
        if options.json {
            try Output.json(CharacterPage(strokes: strokes, radical: radical, list: list))
            return
        }
        let under = radical.map { " under the radical \(list.characters.first?.radical ?? $0)" } ?? ""
        guard !list.characters.isEmpty else {
            Output.line(list.total == 0 ? "No characters have \(MOEText.counted(strokes, "stroke"))\(under)."
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

struct RadicalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radical",
        abstract: "List the characters under a radical, by the strokes beyond it.",
        discussion: """
            The dictionary files characters under the 214 Kangxi radicals; variant shapes such \
            as 氵 (水), 亻 (人) or 扌 (手) are understood. Each line shows the strokes beyond the \
            radical, the character, its total strokes, its readings and its first sense.

            Examples:
              vocab radical 水
              vocab radical 氵 --limit 50
              vocab radical 氵 --limit 50 --offset 50
              vocab radical 行 --json
            """)

    @Argument(help: "One radical character, such as 水.")
    var radical: String

    @Option(name: .long, parsing: .unconditional, help: "At most this many characters (\(Limits.characters.lowerBound)-\(Limits.characters.upperBound)).")
    var limit: Int = Limits.defaultCharacters

    @Option(name: .long, parsing: .unconditional, help: "Skip this many characters first (\(Limits.offset.lowerBound)-\(Limits.offset.upperBound)).")
    var offset: Int = 0

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        try MOERadicalInput.validate(radical)
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: Limits.characters) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
    }

    func run() async throws {
        let typed = radical.trimmingCharacters(in: .whitespaces)
        let list = try RadicalListing.page(in: try options.services.mandarin(), radical: typed, limit: limit, offset: offset)
        if options.json {
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
            lines.append("  \(Output.pad("+\(c.nonRadicalStrokeCount ?? 0)", 5))\(Output.pad(MissingGlyph.shown(c.title), titleWidth))\(Output.pad(strokes, 4))\(MOEText.rest(c))")
        }
        MOEText.print(lines, more: list)
    }
}

/// `vocab search --pinyin/--bopomofo`, reached from SearchCommand.
struct MOEReadingSearch {
    let query: ReadingQuery
    let limit: Int
    let offset: Int
    let display: ReadingDisplay
    let options: GlobalOptions

    func run() throws {
        let list = try query.run(in: try options.services.mandarin(), limit: limit, offset: offset)
        if options.json {
            try Output.json(ReadingSearchPage(query: query, list: list))
            return
        }
        let typed = Failure.quote(query.pinyin ?? query.bopomofo ?? "")
        guard !list.readings.isEmpty else {
            Output.line(list.total == 0 ? "No readings match '\(typed)'."
                : "No readings past \(list.offset): \(MOEText.counted(list.total, "reading")) match '\(typed)'.")
            return
        }
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

/// Checks a radical argument before any database is opened.
enum MOERadicalInput {
    static func validate(_ radical: String) throws {
        let text = radical.trimmingCharacters(in: .whitespaces)
        guard text.count == 1, text.unicodeScalars.allSatisfy({ $0.value > 0x7F && !InputRules.isForbidden($0) }) else {
            throw ValidationError("Give one radical character, like 水 or 氵 (got '\(Failure.quote(radical))').")
        }
    }
}

/// Shared pieces of the MOE listings.
enum MOEText {
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
    static func gloss(_ text: String?) -> String {
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
    static func counted(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

    /// 163087 → "163,087".
    static func grouped(_ n: Int) -> String { Paging.grouped(n) }
}

extension RandomCommand {
    /// Entries of the Mandarin dictionary, reproducible with --seed (page n is the next draw of
    /// the same generator).
    func randomMandarin() throws {
        let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
        let drawn = try MOERandomEntries(drawingFrom: options.services.mandarin(), seed: seed, count: count, page: page)
        if options.json {
            try Output.json(drawn)
            return
        }
        let entries = drawn.entries
        let width = min(16, entries.map { Output.displayWidth(MissingGlyph.shown($0.title)) }.max() ?? 0) + 2
        let soundWidth = min(30, entries.map { Output.displayWidth($0.readings.first?.pinyin ?? "") }.max() ?? 0) + 2
        var lines = entries.map { e in
            let reading = e.readings.first
            return Output.pad(MissingGlyph.shown(e.title), width) + Output.pad(reading?.pinyin ?? "", soundWidth)
                + MOEText.gloss(reading?.definitions.first?.text)
        }
        lines.append("(seed \(seed): 'vocab random --source moe --seed \(seed)\(count == 20 ? "" : " --count \(count)")' draws these again)")
        Output.line(lines.joined(separator: "\n"))
    }
}

import App
import AppCore
import ArgumentParser
import CLICore
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
        Output.line(
            "Imported \(MOEText.grouped(summary.entries)) entries, \(MOEText.grouped(summary.heteronyms)) readings and "
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

    @OptionGroup var page: PageOptions<CompoundPage>

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(title, name: "word or character") }
    }

    func run() async throws {
        let listing = MOELookupListing(
            title: title, compounds: compounds, readingStyle: readingStyle, limit: page.limit, offset: page.offset, json: options.json)
        // The catalog only for a miss's hint: a catalog rebuilt on the way is not worth a notice here.
        let app = try options.app(quietCatalog: true)
        if compounds { return try listing.writeCompounds(from: app.moe()) }
        let cross = CrossSource(catalog: { try await app.catalog() }, dictionary: app.dictionary)
        try listing.write(try await cross.mandarinEntries(title))
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

    @OptionGroup var page: PageOptions<CharacterPage>

    @OptionGroup var options: GlobalOptions

    /// The count, once validate() has accepted it.
    var strokes: Int { MOEStrokesListing.count(words) ?? 0 }

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("Give a stroke count, like 6.") }
        guard MOEStrokesListing.count(words) != nil else {
            throw ValidationError("The stroke count must be a whole number of 1 or more, like 6 (got '\(Failure.quote(count))').")
        }
        if let radical { try MOERadicalInput.validate(radical) }
    }

    func run() async throws {
        try MOEStrokesListing(strokes: strokes, radical: radical, limit: page.limit, offset: page.offset, json: options.json)
            .run(in: options.app().moe())
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

    @OptionGroup var page: PageOptions<CharacterPage>

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        try MOERadicalInput.validate(radical)
    }

    func run() async throws {
        try MOERadicalListing(radical: radical, limit: page.limit, offset: page.offset, json: options.json).run(in: options.app().moe())
    }
}

/// Checks a radical argument before any database is opened.
enum MOERadicalInput {
    static func validate(_ radical: String) throws {
        guard RadicalInput.isOneCharacter(radical) else {
            throw ValidationError("Give one radical character, like 水 or 氵 (got '\(Failure.quote(radical))').")
        }
    }
}

extension RandomCommand {
    /// Entries of the Mandarin dictionary, reproducible with --seed (page n is the next draw of
    /// the same generator).
    func randomMandarin() throws {
        if today || date != nil { return try wordOfTheDay() }
        let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
        let drawn = try MOERandomEntries(drawingFrom: options.app().moe(), seed: seed, count: count, page: page)
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

extension RandomCommand {
    /// `--today` / `--date`: the day's entry, laid out as `vocab lookup` shows it.
    func wordOfTheDay() throws {
        let day = try date.map { text throws(Failure) in try CalendarDay(parsing: text) } ?? CalendarDay.today()
        let picked = try MOEWordOfTheDay(drawingFrom: options.app().moe(), day: day)
        if options.json {
            try Output.json(picked)
            return
        }
        let display = ReadingDisplay(style: .both)
        Output.line("Word of the day, \(day):\n\n" + EntryText.lines(picked.entry, sound: display.sound).joined(separator: "\n"))
    }
}

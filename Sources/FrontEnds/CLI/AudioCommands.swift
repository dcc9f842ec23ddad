import App
import AppCore
import ArgumentParser
import Audio
import CLICore
import Catalog
import Foundation
import Mandarin

struct AudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "Bring in your own recordings and see which words have them.",
        discussion: """
            Recorded and legacy clips live under Audio/ ($VOCAB_AUDIO). 'import' checks a folder \
            of recordings, brings each to the same loudness and files it under its entry; \
            'status' shows, per category, level and accent, which tier answers (recorded, \
            legacy or espeak-ng speech) and lists every broken clip; 'check' does the same \
            survey quietly and fails when something is broken.

            Examples:
              vocab audio import ~/recordings/british --tier recorded --accent british --dry-run
              vocab audio import ~/recordings/british --tier recorded --accent british
              vocab audio import old-clips --tier legacy --map old-clips/map.csv
              vocab audio import ~/recordings/zh --tier recorded --accent mandarin
              vocab audio status --category animals --level starters
              vocab audio check && vocab render --out clips
            """,
        subcommands: [AudioImportCommand.self, AudioStatusCommand.self, AudioCheckCommand.self])
}

struct AudioImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a folder of recordings into the recorded or legacy tier.",
        discussion: """
            Each audio file (wav, ogg, flac, mp3) directly in DIR is matched to an entry by its \
            name, ignoring case, accents, spaces, hyphens, underscores and apostrophes: \
            'Ice-Cream.WAV', 'ice cream.wav' and 'ice_cream.ogg' all name 'ice cream'. A name \
            that fits no entry, or several (homographs such as 'bat'), is listed and not \
            imported; so are two files for one entry. Nothing is guessed: name such files in a \
            map instead, a CSV file of 'word-or-entry,file' lines (for example \
            'catalog:animals/bat,bat-animal.wav' or 'cat,Cat (take 2).wav'; files relative to \
            DIR), which --map uses instead of the names.

            Mandarin (--accent mandarin, after 'vocab import moe'): a file is named by its \
            title, then optionally its reading in pinyin with tone marks or numbers ('行.wav', \
            '行 háng.wav', '行_hang2.wav'); a title alone means its only reading, and is \
            ambiguous for a title with several.

            Every recording is decoded in full and refused, with the reason, when its header \
            promises more frames than it holds (a cut-short copy), it holds less than 0.1 s or \
            more than 10 s of speech, it is silent or it is clipped. An accepted one is trimmed \
            to its speech and brought to -20 LUFS (EBU R128, peaks under -1 dBTP), then stored \
            as Audio/<tier>/<accent>/<source>/<id>.wav, e.g. \
            Audio/recorded/british/catalog/animals/cat.wav; importing again replaces it. The \
            tiers use it at once ('say', 'serve') and 'render' renders the entries it affects \
            again. --dry-run checks and shows the plan and writes nothing.

            Examples:
              vocab audio import ~/recordings --tier recorded --dry-run
              vocab audio import ~/recordings --tier recorded --accent american --json
              vocab audio import old-clips --tier legacy --map old-clips/map.csv
              vocab audio import ~/zh --tier recorded --accent mandarin
            """)

    @Argument(help: ArgumentHelp("The folder of recordings.", valueName: "dir"))
    var directory: String

    @Option(name: .customLong("tier"), help: "recorded or legacy.")
    var storedTier: StoredTier
    var tier: Tier { storedTier.tier }

    @Option(name: .long, help: "british, american or mandarin (default: british).")
    var accent: Accent = .british

    @Option(name: .long, help: ArgumentHelp("A CSV of 'word-or-entry,file' lines to use instead of the file names.", valueName: "file"))
    var map: String?

    @Flag(name: .long, help: "Check and show the plan; write nothing.")
    var dryRun = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let app = try options.app()
        let library = AudioLibrary(app: app)
        let importer = try ClipImporter(audioRoot: library.audioRoot, tier: tier, accent: accent)
        let (targets, _) = try await library.importTargets(accent: accent) { try await app.catalog() }
        let plan = try importer.plan(directory: directory, targets: targets, map: map)
        let json = options.json
        let outcomes = try importer.run(plan, directory: directory, dryRun: dryRun) { outcome in
            guard !json else { return }
            let what = "\(outcome.file) → \(outcome.target.label)"
            switch outcome.status {
            case .refused: Output.line("refused   \(what): \(outcome.problems.joined(separator: "; "))")
            case .planned: Output.line("would import \(what)\(Self.gain(outcome))")
            case .imported, .replaced:
                Output.line("\(outcome.status == .replaced ? "replaced" : "imported")  \(what)\(Self.gain(outcome))")
            }
        }
        let stored = outcomes.filter { $0.status == .imported || $0.status == .replaced || $0.status == .planned }
        let refused = outcomes.filter { $0.status == .refused }
        if json {
            struct Report: Encodable {
                let audio: String
                let tier: Tier
                let accent: Accent
                let dryRun: Bool
                let imported: Int
                let replaced: Int
                let refused: Int
                let outcomes: [ClipImportOutcome]
                let unmatched: [String]
                let ambiguous: [ClipImportPlan.Ambiguity]
                let conflicts: [ClipImportPlan.Conflict]
                let ignored: [String]
                let badMapLines: [String]
            }
            try Output.json(
                Report(
                    audio: library.audioRoot, tier: tier, accent: accent, dryRun: dryRun,
                    imported: stored.count, replaced: outcomes.filter { $0.status == .replaced }.count, refused: refused.count,
                    outcomes: outcomes, unmatched: plan.unmatched, ambiguous: plan.ambiguous, conflicts: plan.conflicts,
                    ignored: plan.ignored, badMapLines: plan.badMapLines))
        } else {
            for file in plan.unmatched {
                Output.line("unmatched \(file): no entry has this name\(accent == .mandarin ? " (is the title in the dictionary?)" : "")")
            }
            for a in plan.ambiguous {
                Output.line("ambiguous \(a.file): could be \(a.candidates.map(\.label).joined(separator: ", ")); name it in a --map")
            }
            for c in plan.conflicts { Output.line("conflict  \(c.files.joined(separator: ", ")) all name \(c.target.label); keep one") }
            for line in plan.badMapLines { Output.line("map       \(line)") }
            let verb = dryRun ? "Would import" : "Imported"
            var summary = "\(verb) \(stored.count) clip(s) into \(library.audioRoot)/\(tier.rawValue)/\(accent.rawValue)"
            let replaced = outcomes.filter { $0.status == .replaced }.count
            if replaced > 0 { summary += " (\(replaced) replaced)" }
            summary += "; refused \(refused.count), unmatched \(plan.unmatched.count), ambiguous \(plan.ambiguous.count)"
            summary += ", conflicts \(plan.conflicts.count)"
            if !plan.ignored.isEmpty { summary += ", \(plan.ignored.count) other file(s) ignored" }
            Output.line(summary + ".")
        }
        // Exit 1 when files were left out, so a script notices; the good ones are in.
        if !refused.isEmpty || !plan.unmatched.isEmpty || !plan.ambiguous.isEmpty || !plan.conflicts.isEmpty || !plan.badMapLines.isEmpty {
            throw ExitCode(1)
        }
    }

    static func gain(_ outcome: ClipImportOutcome) -> String {
        guard let gain = outcome.gainDB else { return "" }
        return String(format: " (%+.1f dB%@)", gain, outcome.durationSeconds.map { String(format: ", %.2f s", $0) } ?? "")
    }
}

/// The options `status` and `check` share.
struct SurveyOptions: ParsableArguments {
    @Option(name: .long, help: "Only this category.")
    var category: String?

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?
}

struct AudioStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show which tier answers for each category, level and accent, and every broken clip.",
        discussion: """
            For every catalog entry in each accent, finds the tier that answers: recorded (an \
            imported clip or the category file's reference), legacy (imported, referenced or \
            named after the word), or tts when neither has a usable clip. Counts and percentages \
            per category, per level and in all; then every clip that is there but cannot be \
            used (missing, outside Audio/, truncated, silent, undecodable, a URL that failed \
            recently), with the reason. Files are decoded, URLs are not fetched. Mandarin clips \
            imported for dictionary titles are counted too.

            Examples:
              vocab audio status
              vocab audio status --category animals --level starters
              vocab audio status --json | jq '.broken'
            """)

    @OptionGroup var survey: SurveyOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let report = try await SurveyReport.make(options: options, survey: survey)
        if options.json { try Output.json(report) } else { report.print() }
    }
}

struct AudioCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail (exit 65) when any recorded or legacy clip is broken.",
        discussion: """
            The survey of 'vocab audio status', printing only the broken clips: exit 0 when \
            there are none, 65 when there are, so a script can stop before a render.

            Examples:
              vocab audio check
              vocab audio check --category animals --json
            """)

    @OptionGroup var survey: SurveyOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let report = try await SurveyReport.make(options: options, survey: survey)
        if options.json {
            struct Check: Encodable {
                let ok: Bool
                let broken: [ClipCoverage.Broken]
            }
            try Output.json(Check(ok: report.broken.isEmpty, broken: report.broken))
        } else if report.broken.isEmpty {
            Output.line("OK: no broken clips (\(report.total.entries) entries, \(report.accents.count) accents).")
        } else {
            report.printBroken()
        }
        if !report.broken.isEmpty {
            throw Failure(
                .brokenClips, "\(report.broken.count) broken clip(s); the tiers fall back past them.",
                hint: "'vocab audio status' shows the coverage.")
        }
    }
}

/// The survey as both commands report it.
struct SurveyReport: Encodable {
    struct Counts: Encodable {
        var recorded = 0, legacy = 0, neural = 0, tts = 0
        var total: Int { recorded + legacy + neural + tts }
        func percent(_ n: Int) -> Int { total == 0 ? 0 : Int((Double(n) * 100 / Double(total)).rounded()) }
        enum CodingKeys: String, CodingKey { case recorded, legacy, neural, tts, recordedPercent, legacyPercent, neuralPercent, ttsPercent }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(recorded, forKey: .recorded)
            try c.encode(legacy, forKey: .legacy)
            try c.encode(neural, forKey: .neural)
            try c.encode(tts, forKey: .tts)
            try c.encode(percent(recorded), forKey: .recordedPercent)
            try c.encode(percent(legacy), forKey: .legacyPercent)
            try c.encode(percent(neural), forKey: .neuralPercent)
            try c.encode(percent(tts), forKey: .ttsPercent)
        }
    }
    struct Group: Encodable {
        var name: String
        var entries: Int
        var byAccent: [String: Counts]
    }

    var audio: String
    /// What speaks entries without a clip: the neural voice, or why not (then espeak-ng).
    var speech: String
    var accents: [Accent]
    var total: Group
    var byCategory: [Group]
    var byLevel: [Group]
    var mandarin: [String: Int]
    var broken: [ClipCoverage.Broken]

    static func make(options: GlobalOptions, survey: SurveyOptions) async throws -> SurveyReport {
        let app = try options.app()
        let library = AudioLibrary(app: app)
        let catalog = try await app.catalog()
        let coverage = try await library.coverage(catalog: catalog, category: survey.category, level: survey.level?.level)
        let categories = try await catalog.categories()
        let accents = Accent.english

        func group(_ name: String, _ include: (ClipCoverage.Row) -> Bool) -> Group {
            var byAccent: [String: Counts] = [:]
            var entries = Set<String>()
            for accent in accents {
                let counts = coverage.counts { $0.accent == accent && include($0) }
                byAccent[accent.rawValue] = Counts(
                    recorded: counts[.recorded] ?? 0, legacy: counts[.legacy] ?? 0,
                    neural: counts[.neural] ?? 0, tts: counts[.tts] ?? 0)
            }
            for row in coverage.rows where include(row) { entries.insert(row.entry) }
            return Group(name: name, entries: entries.count, byAccent: byAccent)
        }
        var byCategory: [Group] = []
        for category in categories where survey.category == nil || coverage.rows.contains(where: { $0.categories.contains(category.id) }) {
            let g = group(category.id) { $0.categories.contains(category.id) }
            if g.entries > 0 { byCategory.append(g) }
        }
        var byLevel: [Group] = []
        for level in Level.allCases {
            let g = group(level.rawValue) { $0.levels.contains(level.rawValue) }
            if g.entries > 0 { byLevel.append(g) }
        }
        let (mandarinCounts, mandarinBroken) = library.mandarinClips()
        var broken = coverage.broken
        if survey.category == nil, survey.level == nil { broken += mandarinBroken }
        let (neural, neuralUnavailable) = app.audio.neuralSynthesizer()
        let speech = neural != nil ? NeuralClipSource.label(.american) : "none: \(neuralUnavailable ?? "unavailable")"
        return SurveyReport(
            audio: library.audioRoot, speech: speech, accents: accents, total: group("all") { _ in true }, byCategory: byCategory,
            byLevel: byLevel, mandarin: Dictionary(uniqueKeysWithValues: mandarinCounts.map { ($0.key.rawValue, $0.value) }),
            broken: broken)
    }

    func print() {
        Output.line("Clips in \(audio) for \(total.entries) entries, by the tier that answers (neural: \(speech); tts: espeak-ng speech):")
        Output.line()
        var rows: [[String]] = []
        var header = ["", "entries"]
        for accent in accents { header += ["\(accent.rawValue) recorded", "legacy", "neural", "tts"] }
        rows.append(header)
        func add(_ g: Group) {
            var row = [g.name, String(g.entries)]
            for accent in accents {
                let c = g.byAccent[accent.rawValue] ?? Counts()
                row += [c.recorded, c.legacy, c.neural, c.tts].map { "\($0) (\(c.percent($0))%)" }
            }
            rows.append(row)
        }
        for g in byCategory { add(g) }
        rows.append([])
        for g in byLevel { add(g) }
        rows.append([])
        add(total)
        let widths = (0..<header.count).map { i in rows.map { i < $0.count ? Output.displayWidth($0[i]) : 0 }.max() ?? 0 }
        for row in rows {
            guard !row.isEmpty else {
                Output.line()
                continue
            }
            var line = ""
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - Output.displayWidth(cell))
                line += i == 0 ? cell + pad : "  " + pad + cell
            }
            Output.line(line)
        }
        if !mandarin.isEmpty {
            Output.line()
            Output.line("Mandarin clips imported: " + mandarin.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ".")
        }
        Output.line()
        if broken.isEmpty { Output.line("No broken clips.") } else { printBroken() }
    }

    func printBroken() {
        Output.line("Broken clips (\(broken.count)); the tiers fall back past them:")
        for b in broken { Output.line("  \(b.word) (\(b.accent.rawValue), \(b.tier.rawValue)) \(b.reference): \(b.reason)") }
    }
}

/// The tiers clips are imported into, as `--tier` accepts them: the voices' tiers make speech
/// and read nothing stored, so they are not offered (`ClipImporter` refuses them too).
enum StoredTier: String, ExpressibleByArgument, CaseIterable {
    case recorded, legacy

    var tier: Tier {
        switch self {
        case .recorded: .recorded
        case .legacy: .legacy
        }
    }
}

import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Definitions
import Foundation
import Learners
import Store

struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Your saved words, from every source: add, list, show and remove them.",
        discussion: """
            One library holds catalog words (each entry: 'bat' the animal and 'bat' for sports \
            are two), Mandarin entries with the reading you chose, and words only the online \
            dictionary knows (its definition is kept with them). Each saved item gets a review \
            card ('vocab review'). The library lives in user.sqlite in the vocab home, apart \
            from the catalog, so rebuilding the catalog never loses it.

            Examples:
              vocab library add cat
              vocab library add bat --entry sports-and-leisure/bat
              vocab library add 行 --reading háng
              vocab library add 行 --all-readings
              vocab library add serendipity
              vocab library list
              vocab library show 行
              vocab library remove cat
            """,
        subcommands: [LibraryAddCommand.self, LibraryListCommand.self, LibraryShowCommand.self, LibraryRemoveCommand.self],
        defaultSubcommand: LibraryListCommand.self)
}

extension LearningService.Source: ExpressibleByArgument {}

struct LibraryAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a word: from the catalog, the Mandarin dictionary, or the online dictionary.",
        discussion: """
            The catalog is looked at first (every entry of a headword is saved, unless --entry \
            names one), then the Mandarin dictionary for Han characters (the first reading, \
            --reading for another, --all-readings for every one), then the online dictionary. \
            Adding a saved item again changes nothing and says so. Exits 1 when no source knows \
            the word.

            Examples:
              vocab library add "ice cream"
              vocab library add 行 --reading hang2
              vocab library add serendipity --json
            """)

    @Argument(help: "The word or characters (quote multi-word items).") var word: String
    @Option(name: .long, help: "Where to look: auto, catalog, moe or dictionary.") var source: LearningService.Source = .auto
    @Option(name: .long, help: ArgumentHelp("One catalog entry by id (animals/bat).", valueName: "id")) var entry: String?
    @Option(name: .long, help: ArgumentHelp("A Mandarin reading: pinyin with or without tones, bopomofo, or its number.", valueName: "reading"))
    var reading: String?
    @Flag(name: .long, help: "Save every reading of a Mandarin entry.") var allReadings = false
    @OptionGroup var dictionary: DictionaryOptions
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
    }

    func run() async throws {
        try await options.withLearning(self.learner) { app, service, learner in
            // Built lazily: catalog words never need the network, nor a valid dictionary setting.
            let dictionary = self.dictionary
            let verbose = options.verbose
            let saved = try await service.save(word, for: learner, source: source, entry: entry, reading: reading, allReadings: allReadings) { text in
                do {
                    let definitions = try dictionary.definitionService(app, verbose: verbose)
                    let answer = try await definitions.define(text)
                    guard let (pos, definition) = answer.entries.firstDefinition else { return .unknown }
                    return .known(
                        headword: answer.entries.first?.word ?? text, partOfSpeech: pos, definition: definition,
                        phonetic: answer.entries.lazy.compactMap(\.bestPhonetic).first)
                } catch {
                    return .unavailable(reason: "\(error)")
                }
            }
            if options.json {
                struct Report: Encodable {
                    let status: String
                    let item: LibraryItemBody
                }
                var reports: [Report] = []
                for s in saved {
                    guard let card = try await service.store.card(of: s.item.id, learner: learner.id) else { continue }
                    reports.append(Report(status: s.inserted ? "added" : "alreadySaved", item: await service.body(of: s.item, card: card, level: nil)))
                }
                try Output.json(reports)
                return
            }
            for s in saved {
                let from =
                    switch s.item.key.source {
                    case .catalog: "from the catalog (\(s.item.key.entry))"
                    case .moe: "from the Mandarin dictionary, read \(s.item.key.reading)"
                    case .dictionary, .text: "from the online dictionary"
                    }
                let word = Failure.quote(s.item.word, limit: 100)
                Output.line(
                    s.inserted ? "Saved '\(word)' \(from)." : "'\(word)' is already in the library \(from) (saved \(Output.dateText(epoch: s.item.savedAt))).")
            }
        }
    }
}

struct LibraryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List saved items with their source and when each is due.",
        discussion: """
            Examples:
              vocab library list
              vocab library list --user anna --json
            """)

    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearning(self.learner) { service, learner in
            if options.json {
                try Output.json(try await service.libraryBody(of: learner))
                return
            }
            let items = try await service.library(of: learner)
            if items.isEmpty {
                Output.line("The library is empty. Save words with 'vocab library add <word>'.")
                return
            }
            var rows: [(String, String, String)] = []
            for (item, card) in items {
                let content = await service.content(of: item, level: nil)
                let meaning = content.vi ?? content.senses.first?.text ?? ""
                let short = Output.displayWidth(meaning) > 34 ? String(meaning.prefix(32)) + "…" : meaning
                let due = card.card.phase == .new ? "new" : "due " + Output.until(card.card.due)
                rows.append((Output.itemLabel(item), short, due))
            }
            let w1 = min(40, rows.map { Output.displayWidth($0.0) }.max() ?? 0) + 2
            let w2 = (rows.map { Output.displayWidth($0.1) }.max() ?? 0) + 2
            for r in rows { Output.line(Output.pad(r.0, w1) + Output.pad(r.1, w2) + r.2) }
            Output.line("\(items.count) item\(items.count == 1 ? "" : "s") saved.")
        }
    }
}

struct LibraryShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a saved item in full (every item with that word: homographs, readings).",
        discussion: """
            Examples:
              vocab library show cat
              vocab library show 行 --json
            """)

    @Argument(help: "The word, the item (catalog:animals/cat) or its number.") var word: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearning(self.learner) { service, learner in
            let hits = try await service.items(matching: word, of: learner)
            var bodies: [LibraryItemBody] = []
            for (item, card) in hits { bodies.append(await service.body(of: item, card: card, level: nil)) }
            if options.json {
                try Output.json(bodies)
                return
            }
            for (i, body) in bodies.enumerated() {
                if i > 0 { Output.line() }
                for line in ItemCard.lines(body) { Output.line(line) }
            }
        }
    }
}

struct LibraryRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove saved items (every item with the word, or one by item or number). Exits 1 when none was saved.",
        discussion: """
            Its past ratings stay in the review log, so progress keeps counting them.

            Examples:
              vocab library remove cat
              vocab library remove catalog:animals/bat
            """)

    @Argument(help: "The word, the item (catalog:animals/bat) or its number.") var word: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
    }

    func run() async throws {
        try await options.withLearning(self.learner) { service, learner in
            let removed = try await service.remove(word, of: learner)
            if options.json {
                struct Report: Encodable { let removed: [String] }
                try Output.json(Report(removed: removed.map(\.key.description)))
                return
            }
            for item in removed { Output.line("Removed '\(Failure.quote(Output.itemLabel(item), limit: 100))' from the library.") }
        }
    }
}

/// One saved item in full, as `vocab library show` prints it.
enum ItemCard {
    static func lines(_ b: LibraryItemBody) -> [String] {
        let c = b.content
        var lines = ["\(c.front)  (\(b.item))  saved \(Output.dateText(epoch: b.savedAt))"]
        if let ipa = c.ipa { lines += ["  British     /\(ipa.british)/", "  American    /\(ipa.american)/"] }
        if let pinyin = c.pinyin { lines.append("  Pinyin      \(pinyin)") }
        if let bopomofo = c.bopomofo { lines.append("  Bopomofo    \(bopomofo)") }
        if let vi = c.vi { lines.append("  Tiếng Việt  \(vi)") }
        for (i, s) in c.senses.enumerated() {
            lines.append((i == 0 ? "  Meaning     " : "              ") + (s.partOfSpeech.map { "(\($0)) " } ?? "") + s.text)
        }
        if let example = c.example { lines.append("  Example     \(example)") }
        if let categories = c.categories { lines.append("  Categories  \(categories.joined(separator: ", "))") }
        let card = b.card
        let state =
            card.phase == .new
            ? "new, not reviewed yet"
            : "\(card.phase.rawValue), due \(Output.dateText(epoch: card.due)) (\(Output.until(card.due)))"
                + (card.stability.map { String(format: ", stability %.1f days", $0) } ?? "") + ", \(card.reps) review\(card.reps == 1 ? "" : "s")"
        lines.append("  Card        \(state)")
        return lines
    }
}

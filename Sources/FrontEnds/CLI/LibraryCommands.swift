import CLICore
import App
import AppCore
import ArgumentParser
import Catalog
import Foundation
import Library
import Definitions
import Store

struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Your saved words: add, list, show and remove them.",
        discussion: """
            Saved words live in user.sqlite in the vocab home, apart from the catalog \
            database, so rebuilding the catalog never loses them. A word not in the catalog \
            can be saved when the online dictionary knows it; its definition is kept with it.

            Examples:
              vocab library add cat
              vocab library add serendipity
              vocab library list
              vocab library show --json
              vocab library remove cat
            """,
        subcommands: [LibraryAddCommand.self, LibraryListCommand.self, LibraryShowCommand.self, LibraryRemoveCommand.self],
        defaultSubcommand: LibraryListCommand.self)
}

extension GlobalOptions {
    /// The library over the user's store (returned too, for the dictionary's saved answers)
    /// and the current catalog.
    func openLibrary() async throws -> (WordLibrary, SQLiteDocumentStore) {
        let catalog = try await openCatalog()
        let store = try services.userStore()
        return (WordLibrary(store: store, catalog: catalog), store)
    }
}

struct LibraryAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a word. Catalog words are saved at once; others only if the online dictionary knows them.",
        discussion: """
            Adding a saved word again changes nothing and says so. Exits 1 when neither the \
            catalog nor the dictionary (live or a saved answer) knows the word.

            Examples:
              vocab library add cat
              vocab library add "ice cream"
              vocab library add serendipity --json
            """)

    @Argument(help: "The word to save (quote multi-word items).")
    var word: String

    @OptionGroup var dictionary: DictionaryOptions
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
    }

    func run() async throws {
        let (library, store) = try await options.openLibrary()
        // Built lazily: catalog words never need the network, nor a valid dictionary setting.
        let services = options.services, dictionary = self.dictionary, verbose = options.verbose
        let result = try await library.add(word) { text in
            do {
                let service = try dictionary.definitionService(services, store: store, verbose: verbose)
                let answer = try await service.define(text)
                guard let (pos, definition) = answer.entries.firstDefinition else { return .unknown }
                return .known(headword: answer.entries.first?.word ?? text, partOfSpeech: pos, definition: definition,
                              phonetic: answer.entries.lazy.compactMap(\.bestPhonetic).first)
            } catch {
                return .unavailable(reason: "\(error)")
            }
        }
        if options.json {
            struct Report: Encodable { let status: String; let entry: SavedWord }
            try Output.datedJSON(Report(status: { if case .added = result { "added" } else { "alreadySaved" } }(), entry: result.entry))
            return
        }
        let entry = result.entry
        switch result {
        case .added:
            let from = entry.source == .catalog ? "from the catalog" : "from the online dictionary"
            Output.line("Saved '\(Failure.quote(entry.word, limit: 100))' \(from).")
        case .alreadySaved:
            Output.line("'\(Failure.quote(entry.word, limit: 100))' is already in your library (saved \(Output.dateText(entry.savedAt))).")
        }
    }
}

extension GlobalOptions {
    /// The saved words for a text listing; nil when the answer was already printed
    /// (as JSON, or the note that the library is empty).
    func libraryEntriesForText() async throws -> [LibraryEntry]? {
        let (library, _) = try await openLibrary()
        let entries = try await library.entries()
        if json {
            try Output.datedJSON(entries.map(LibraryEntryJSON.init))
            return nil
        }
        if entries.isEmpty {
            Output.line("Your library is empty. Save words with 'vocab library add <word>'.")
            return nil
        }
        return entries
    }
}

struct LibraryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List saved words with the date each was saved.",
        discussion: """
            Examples:
              vocab library list
              vocab library list --json
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        guard let entries = try await options.libraryEntriesForText() else { return }
        let width = min(24, entries.map { Output.displayWidth($0.saved.word) }.max() ?? 0) + 2
        let meanings = entries.map { entry -> String in
            let meaning = entry.catalog.first?.vi ?? entry.saved.definition ?? ""
            return Output.displayWidth(meaning) > 34 ? String(meaning.prefix(32)) + "…" : meaning
        }
        let meaningWidth = (meanings.map { Output.displayWidth($0) }.max() ?? 0) + 2
        for (entry, meaning) in zip(entries, meanings) {
            Output.line("\(Output.pad(entry.saved.word, width))\(Output.pad(meaning, meaningWidth))saved \(Output.dateText(entry.saved.savedAt))"
                        + (entry.saved.source == .dictionary ? "  (dictionary)" : ""))
        }
        Output.line("\(entries.count) word\(entries.count == 1 ? "" : "s") saved.")
    }
}

struct LibraryShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every saved word in full, with its catalog details.",
        discussion: """
            Examples:
              vocab library show
              vocab library show --json
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        guard let entries = try await options.libraryEntriesForText() else { return }
        for (i, entry) in entries.enumerated() {
            if i > 0 { Output.line() }
            let saved = entry.saved
            if let w = entry.catalog.first {
                WordCard.lines(w, headerSuffix: "  saved \(Output.dateText(saved.savedAt))",
                               categories: entry.catalog.flatMap(\.categories)).forEach { Output.line($0) }
            } else {
                Output.line("\(saved.word)\(saved.partOfSpeech.map { "  (\($0))" } ?? "")  saved \(Output.dateText(saved.savedAt))")
                if let phonetic = saved.phonetic { Output.line("  Phonetic    \(phonetic)") }
                Output.line("  Definition  \(saved.definition ?? "–")")
                Output.line(saved.source == .dictionary ? "  From the online dictionary; not in the catalog." : "  No longer in the catalog.")
            }
        }
    }
}

struct LibraryRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a saved word. Exits 1 when it was not saved.",
        discussion: """
            Examples:
              vocab library remove cat
            """)

    @Argument(help: "The word to remove.")
    var word: String

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
    }

    func run() async throws {
        let (library, _) = try await options.openLibrary()
        let removed = try await library.remove(word)
        if options.json {
            struct Report: Encodable { let removed: SavedWord }
            try Output.datedJSON(Report(removed: removed))
            return
        }
        Output.line("Removed '\(Failure.quote(removed.word, limit: 100))' from your library.")
    }
}

struct LibraryEntryJSON: Encodable {
    let word: String, savedAt: Date, source: String, definition: String?, partOfSpeech: String?, phonetic: String?
    let catalog: [Word]

    init(_ e: LibraryEntry) {
        word = e.saved.word; savedAt = e.saved.savedAt; source = e.saved.source.rawValue
        definition = e.saved.definition; partOfSpeech = e.saved.partOfSpeech; phonetic = e.saved.phonetic
        catalog = e.catalog
    }
}

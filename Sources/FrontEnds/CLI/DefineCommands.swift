import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Definitions
import Foundation
import HTTPFetch

struct DefineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "define",
        abstract: "Look a word up in the online dictionary, with the catalog entry when there is one.",
        discussion: """
            Meanings come from a dictionaryapi.dev-style service and are saved in user.sqlite \
            in the vocab home: a saved answer is reused for 7 days without asking again (a \
            "no entry" answer for 24 hours), and when the service cannot be reached (refused, \
            timed out, 5xx, garbled answer) the saved copy is shown and marked offline. \
            Catalog words also show IPA, the Vietnamese translation and levels. Exits 1 when \
            neither the service, a saved copy nor the catalog has the word.

            The service is chosen by --dictionary-url, else $VOCAB_DICTIONARY_URL, else \
            "dictionaryURL" in <home>/config.json, else https://api.dictionaryapi.dev.

            Examples:
              vocab define happy
              vocab define cat --all
              vocab define "ice cream" --json
              VOCAB_DICTIONARY_URL=http://localhost:8080 vocab define happy --refresh
            """)

    @Argument(help: "The word to define (quote multi-word items).")
    var word: String

    @Option(name: .long, help: "Dictionary language code; the catalog is English only.")
    var lang: String = "en"

    @Flag(name: .long, help: "Ask the service even when a saved answer is fresh.")
    var refresh = false

    @Flag(name: .long, help: "Show every definition (default: three per part of speech).")
    var all = false

    @OptionGroup var dictionary: DictionaryOptions
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard !word.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("Give a word to define.") }
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
        try validateLanguage(lang)
    }

    func run() async throws {
        let app = try options.app()
        let service = try dictionary.definitionService(app, verbose: options.verbose)
        let result = try await WordDefiner(catalog: try await app.catalog(), definitions: service).define(word, lang: lang, refresh: refresh)
        if options.json {
            try Output.datedJSON(DefinitionJSON(result))
            return
        }
        DefinitionText(result: result, all: all).print()
    }
}

/// A --timeout in seconds, as both commands that ask a service take it.
func validateTimeout(_ timeout: Double) throws {
    guard (0.1...60).contains(timeout) else { throw ValidationError("--timeout must be between 0.1 and 60 seconds (got \(timeout)).") }
}

/// Language codes go into a URL path; keep them to what codes look like ("en", "pt-br").
func validateLanguage(_ lang: String) throws {
    let ok = (2...8).contains(lang.count) && lang.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
    if !ok { throw ValidationError("--lang must be a language code such as en.") }
}

/// The human text of `vocab define`.
struct DefinitionText {
    let result: WordDefinition
    let all: Bool
    static let perPartOfSpeech = 3

    func print() {
        let entry = result.catalog.first
        var heading = result.word
        if let entry {
            heading += "  /\(entry.ipa.british)/ British · /\(entry.ipa.american)/ American"
        } else if let phonetic = result.remote?.entries.lazy.compactMap(\.bestPhonetic).first {
            heading += "  \(phonetic)"
        }
        Output.line(heading)
        for w in result.catalog {
            Output.line("  Tiếng Việt  \(w.vi)")
            Output.line("  Levels      \(w.levels.map(\.rawValue).joined(separator: ", ")) · \(w.categories.joined(separator: ", "))")
            Output.line("  Catalog     \(w.definition.en)")
        }
        if let remote = result.remote, remote.found {
            printMeanings(remote.entries)
        }
        Output.line()
        Output.line(sourceLine)
    }

    /// Meanings of all entries, grouped by part of speech in the order they first appear.
    private func printMeanings(_ entries: [DictionaryEntry]) {
        var order: [String] = []
        var grouped: [String: [Definition]] = [:]
        var synonyms: [String: [String]] = [:]
        for meaning in entries.flatMap(\.meanings) {
            if grouped[meaning.partOfSpeech] == nil { order.append(meaning.partOfSpeech) }
            grouped[meaning.partOfSpeech, default: []] += meaning.definitions
            synonyms[meaning.partOfSpeech, default: []] += meaning.synonyms
        }
        for pos in order {
            let definitions = grouped[pos] ?? []
            Output.line()
            Output.line(pos.isEmpty ? "(meaning)" : pos)
            let shown = all ? definitions : Array(definitions.prefix(Self.perPartOfSpeech))
            for (i, d) in shown.enumerated() {
                Output.line("  \(i + 1). \(d.definition)")
                if let example = d.example, !example.isEmpty { Output.line("     “\(example)”") }
                if !d.synonyms.isEmpty { Output.line("     synonyms: \(d.synonyms.prefix(6).joined(separator: ", "))") }
                if !d.antonyms.isEmpty { Output.line("     antonyms: \(d.antonyms.prefix(6).joined(separator: ", "))") }
            }
            if shown.count < definitions.count { Output.line("  … \(definitions.count - shown.count) more (--all)") }
            var seen: Set<String> = []
            let more = (synonyms[pos] ?? []).filter { seen.insert($0).inserted }
            if !more.isEmpty { Output.line("  Synonyms: \(more.prefix(8).joined(separator: ", "))") }
        }
    }

    private var sourceLine: String {
        if let failure = result.remoteFailure {
            return "Offline: the dictionary could not be reached (\(failure)); nothing saved from before, showing the catalog entry only."
        }
        guard let remote = result.remote else { return "" }
        let when = "\(Output.dateText(remote.fetchedAt)) (\(Output.ago(remote.fetchedAt)))"
        switch remote.origin {
        case .remote:
            return remote.found
                ? "Source: online dictionary, just now." : "The online dictionary has no entry for '\(remote.word)'; the catalog entry is above."
        case .cache:
            return remote.found
                ? "Source: online dictionary, saved \(when); --refresh asks again."
                : "The online dictionary had no entry for '\(remote.word)' when asked \(when); the catalog entry is above."
        case .offline(let failure):
            return remote.found
                ? "Offline: the dictionary could not be reached (\(failure)); showing the copy saved \(when)."
                : "Offline: the dictionary could not be reached (\(failure)); it had no entry when asked \(when)."
        }
    }
}

struct DefinitionJSON: Encodable {
    struct Remote: Encodable {
        /// found, notFound or unavailable.
        let status: String
        /// remote, cache or offline; nil when unavailable.
        let origin: String?
        let fetchedAt: Date?
        let error: String?
        let entries: [DictionaryEntry]
    }

    let word: String, lang: String, catalog: [Word], dictionary: Remote, offline: Bool

    init(_ d: WordDefinition) {
        word = d.word
        lang = d.lang
        catalog = d.catalog
        offline = d.usedOfflineData
        if let remote = d.remote {
            var error: String?
            if case .offline(let failure) = remote.origin { error = failure.description }
            dictionary = Remote(
                status: remote.found ? "found" : "notFound", origin: remote.origin.name, fetchedAt: remote.fetchedAt,
                error: error, entries: remote.entries)
        } else {
            dictionary = Remote(status: "unavailable", origin: nil, fetchedAt: nil, error: d.remoteFailure?.description, entries: [])
        }
    }
}

struct RandomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "random",
        abstract: "Random words from an online random-word service, or from the catalog when it is unavailable.",
        discussion: """
            The service is asked for --count words (GET <url>/word?number=N&lang=L). When it \
            cannot be reached or answers nonsense, random catalog words are shown instead and \
            a note on standard error says so.

            --seed draws from the catalog without asking the service, so the same seed gives \
            the same words; --page then walks through that draw without repeats (page 2 is \
            the next --count words). The service draws afresh every time, so --page only \
            matters for catalog draws.

            The service is chosen by --random-url, else $VOCAB_RANDOM_URL, else "randomURL" \
            in <home>/config.json, else https://random-word-api.herokuapp.com.

            --source moe draws entries from the Mandarin dictionary instead (see 'vocab import \
            moe'); the seed it used is printed, and --seed repeats a draw. With --today it \
            shows the word of the day: the same entry for everyone all day (the draw seeded by \
            the local date); --date YYYY-MM-DD asks for another day's.

            Examples:
              vocab random
              vocab random --count 5 --lang es
              vocab random --count 10 --seed 42 --page 2 --json
              vocab random --source moe --count 5
              vocab random --source moe --seed 7
              vocab random --source moe --today
              vocab random --source moe --date 2026-03-01 --json
            """)

    @Option(name: .long, parsing: .unconditional, help: "How many words (\(Limits.random.lowerBound)-\(Limits.random.upperBound)).")
    var count: Int = Limits.defaultRandom

    @Option(name: .long, help: ArgumentHelp("web (the service, else the catalog) or moe (the Mandarin dictionary).", valueName: "source"))
    var source: String = "web"

    @Option(name: .long, help: "Language code for the service; catalog words are English.")
    var lang: String = "en"

    @Option(name: .long, parsing: .unconditional, help: "Which page of a seeded catalog draw (from 1).")
    var page: Int = 1

    @Option(name: .long, help: "Draw reproducibly from the catalog with this seed (skips the service).")
    var seed: UInt64?

    @Flag(name: .long, help: "With --source moe: the word of the day, the same all day.")
    var today = false

    @Option(name: .long, help: ArgumentHelp("With --source moe: the word of the day of this day instead of today.", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(
        name: .customLong("random-url"),
        help: ArgumentHelp(
            "Base URL of a random-word-api-compatible service.",
            discussion: "Default: $VOCAB_RANDOM_URL, else \"randomURL\" in config.json in the vocab home, else \(RandomWordClient.defaultBaseURL).",
            valueName: "url"))
    var randomURL: String?

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds to wait for the service before using the catalog (0.1-60).", valueName: "seconds"))
    var timeout: Double = 4

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(count, name: "--count", range: Limits.random) }
        guard page >= 1 else { throw ValidationError("--page starts at 1 (got \(page)).") }
        try validateTimeout(timeout)
        try validateLanguage(lang)
        guard ["web", "moe"].contains(source) else {
            throw ValidationError("--source is web or moe (got '\(Failure.quote(source))').")
        }
        if today || date != nil {
            guard source == "moe" else { throw ValidationError("--today and --date go with --source moe.") }
            guard seed == nil, page == 1 else { throw ValidationError("--today and --date pick one entry by the day; leave out --seed and --page.") }
            if let date { _ = try checked { () throws(Failure) in try CalendarDay(parsing: date) } }
        }
    }

    func run() async throws {
        if source == "moe" { return try randomMandarin() }
        let app = try options.app()
        let endpoint = try Endpoint.resolve(
            flag: ("--random-url", randomURL), variable: "VOCAB_RANDOM_URL",
            config: ("randomURL", try app.config().randomURL), fallback: RandomWordClient.defaultBaseURL)
        if options.verbose && seed == nil { Output.error("vocab: random words from \(endpoint.url) (from \(endpoint.origin)).") }
        var requestOptions = DictionaryAPIClient.defaultOptions
        requestOptions.timeout = timeout
        requestOptions.connectTimeout = min(requestOptions.connectTimeout, timeout)
        let client = RandomWordClient(http: CurlHTTPClient(), baseURL: endpoint.url, options: requestOptions)
        let catalog = try await app.catalog()
        let result = try await RandomWordService(client: client, catalog: catalog).words(count: count, lang: lang, page: page, seed: seed)

        var note: String?
        if let failure = result.fallbackReason {
            note =
                "the random-word service is unavailable (\(failure)); these are random catalog words instead"
                + (lang == "en" ? "." : " (the catalog is English).")
            Output.error("vocab: \(note!)")
        }
        if options.json {
            try Output.json(RandomJSON(result, page: page, note: note))
            return
        }
        if result.words.isEmpty {
            Output.line("No words on page \(page): the catalog has fewer than \(count * (page - 1) + 1) words.")
            return
        }
        let width = min(24, result.words.map { Output.displayWidth($0) }.max() ?? 0) + 2
        for word in result.words {
            if let entry = result.catalogEntries[word] {
                Output.line("\(Output.pad(word, width))\(entry.vi)")
            } else {
                Output.line(word)
            }
        }
    }
}

struct RandomJSON: Encodable {
    struct Item: Encodable {
        let word: String
        let vi: String?
        let levels: [Level]?
        let categories: [String]?
    }
    let source: String, page: Int, seed: UInt64?, note: String?, words: [Item]

    init(_ r: RandomWords, page: Int, note: String?) {
        source = r.source.rawValue
        self.page = page
        seed = r.source == .catalog ? r.seed : nil
        self.note = note
        words = r.words.map { w in
            let e = r.catalogEntries[w]
            return Item(word: w, vi: e?.vi, levels: e?.levels, categories: e?.categories)
        }
    }
}

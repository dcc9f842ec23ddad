import App
import AppCore
import ArgumentParser
import Cache
import Catalog
import CLICore
import Foundation
import Mandarin

struct CategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "List the 20 YLE topic categories with their word counts.",
        discussion: """
            Each line shows the icon, the id to use in other commands, the English and \
            Vietnamese names and how many words the category has (at --level, if given).

            Examples:
              vocab categories
              vocab categories --level movers --json
            """)

    @Option(name: .long, help: "Count only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CategoriesListing(level: level?.level, json: options.json, verbose: options.verbose).run(in: options.environment)
    }
}

struct WordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "words",
        abstract: "List the words of a category, optionally at one level.",
        discussion: """
            Words are in alphabetical order with British IPA and the Vietnamese translation. \
            Results for a (category, level) pair are cached until the catalog changes; \
            --verbose says whether the cache answered.

            Examples:
              vocab words animals --level starters
              vocab words food-and-drink --limit 20 --offset 20
              vocab words animals --level flyers --json
            """)

    @Argument(help: "Category id or English name (see 'vocab categories').")
    var category: String

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @Option(name: .long, parsing: .unconditional, help: "At most this many words (\(Limits.page.lowerBound)-\(Limits.page.upperBound)).")
    var limit: Int = Limits.defaultPage

    @Option(name: .long, parsing: .unconditional, help: "Skip this many words first.")
    var offset: Int = 0

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: Limits.page) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
    }

    func run() async throws {
        try await WordsListing(category: category, level: level?.level, limit: limit, offset: offset,
                               json: options.json, verbose: options.verbose).run(in: options.environment)
    }
}

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one word in full: IPA, definitions, examples per level, categories.",
        discussion: """
            Examples:
              vocab show cat
              vocab show "ice cream" --json
            """)

    @Argument(help: "The headword (quote multi-word items).")
    var word: String

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word", pathSafe: false) }
    }

    func run() async throws {
        let catalog = try await options.openCatalog()
        let words = try await options.services.catalogWords(word, in: catalog)
        if options.json {
            try Output.json(WordEntries(word: words.first?.word ?? word, entries: words))
            return
        }
        for (i, w) in words.enumerated() {
            if i > 0 { Output.line() }
            WordCard.lines(w).forEach { Output.line($0) }
        }
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find words by the start of, or text in, the headword or Vietnamese translation.",
        discussion: """
            Matches at the start come first. Vietnamese may be typed without diacritics. \
            --pinyin and --bopomofo search the Mandarin dictionary instead (see 'vocab import moe'): \
            whole readings first, then longer words that start with them, a page at a time \
            (--limit up to \(Limits.characters.upperBound), --offset). Tones are ignored unless \
            --tones is given: then each syllable typed with a tone (xíng, xing2, ㄒㄧㄥˊ) must have \
            it; a pinyin syllable without one matches any tone, a bopomofo syllable without a \
            mark is first tone.

            Examples:
              vocab search ca
              vocab search "con mèo"
              vocab search meo --limit 5 --json
              vocab search --pinyin xing
              vocab search --pinyin xing --offset 30
              vocab search --pinyin xing2 --tones
              vocab search --pinyin "xing zheng"
              vocab search --bopomofo ㄒㄧㄥ
            """)

    @Argument(help: "Text to look for.")
    var text: String?

    @Option(name: .long, help: "Mandarin readings in pinyin, tones optional (xing, xíng, lv for lǜ).")
    var pinyin: String?

    @Option(name: .long, help: "Mandarin readings in bopomofo (zhuyin), tones optional.")
    var bopomofo: String?

    @Option(name: .long, parsing: .unconditional, help: "At most this many results (\(Limits.search.lowerBound)-\(Limits.search.upperBound); readings up to \(Limits.characters.upperBound)).")
    var limit: Int = Limits.defaultSearch

    @Option(name: .long, parsing: .unconditional, help: "Readings: skip this many first (\(Limits.offset.lowerBound)-\(Limits.offset.upperBound)).")
    var offset: Int = 0

    @Flag(name: .long, help: "Readings: match the tones typed in the query exactly.")
    var tones = false

    @Option(name: .customLong("reading-style"), help: "Readings: show pinyin, bopomofo or both (coloured by tone in a terminal).")
    var readingStyle: ReadingStyle = .both

    @OptionGroup var options: GlobalOptions

    private var readings: Bool { pinyin != nil || bopomofo != nil }

    func validate() throws {
        _ = try checked { () throws(Failure) in
            try InputRules.bounded(limit, name: "--limit", range: readings ? Limits.characters : Limits.search)
        }
        guard [text, pinyin, bopomofo].compactMap({ $0 }).count == 1 else {
            throw ValidationError("Give exactly one of TEXT, --pinyin or --bopomofo.")
        }
        if readings {
            _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
            _ = try checked { () throws(Failure) in try ReadingQuery(pinyin: pinyin, bopomofo: bopomofo) }
        } else if offset != 0 || tones {
            throw ValidationError("--offset and --tones go with --pinyin or --bopomofo.")
        }
        if let text { _ = try checked { () throws(Failure) in try InputRules.text(text, name: "search text", pathSafe: false) } }
    }

    func run() async throws {
        if readings {
            let query = try ReadingQuery(pinyin: pinyin, bopomofo: bopomofo, tones: tones ? .exact : .ignore)
            return try MOEReadingSearch(query: query, limit: limit, offset: offset, readingStyle: readingStyle, json: options.json)
                .run(in: options.services.mandarin())
        }
        let text = self.text ?? ""
        let catalog = try await options.openCatalog()
        let words = try await catalog.search(text, limit: limit)
        if options.json {
            try Output.json(SearchResults(query: text, limit: limit, results: words))
            return
        }
        if words.isEmpty {
            Output.line("No words match '\(Failure.quote(text))'.")
            return
        }
        for w in words {
            Output.line("\(Output.pad(w.word, 20))\(Output.pad("/\(w.ipa.british)/", 20))\(Output.pad(w.vi, 26))\(w.categories.first ?? "")")
        }
    }
}

struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Validate Categories/ and rebuild the catalog database now.",
        discussion: """
            Other commands rebuild by themselves when the JSON changes; this forces it. The new \
            database is built beside the old one and swapped in only when complete.
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let env = options.environment
        let (catalog, _) = try await env.openCatalog(force: true)
        let categories = try await catalog.categories().count
        let words = try await catalog.wordCount()
        if options.json {
            struct Report: Encodable { let database: String; let categories: Int; let words: Int }
            try Output.json(Report(database: env.home.catalogDatabase, categories: categories, words: words))
        } else {
            Output.line("Indexed \(words) words in \(categories) categories into \(env.home.catalogDatabase)")
        }
    }
}

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the category files and report every problem with its file and word.",
        discussion: "Also reports clip references (audio.<accent>.recorded or .legacy) that name no file inside Audio/. Exits 0 when the data is valid, 65 when it is not. Nothing is written.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let source = CatalogSource(directory: options.environment.categoriesDirectory)
        let files = try source.read()
        var (decoded, issues) = CatalogValidator().validate(files)
        issues += AudioLibrary(services: options.services).referenceIssues(decoded, names: files.map(\.name))
        if options.json {
            struct Report: Encodable { let valid: Bool; let files: Int; let words: Int; let issues: [ValidationIssue] }
            try Output.json(Report(valid: issues.isEmpty, files: files.count, words: decoded.reduce(0) { $0 + $1.words.count }, issues: issues))
        } else if issues.isEmpty {
            Output.line("OK: \(files.count) files, \(decoded.reduce(0) { $0 + $1.words.count }) words, no problems.")
        } else {
            for issue in issues { Output.line(issue.description) }
            Output.line("\(issues.count) problem(s) in \(Set(issues.map(\.file)).count) file(s).")
        }
        if !issues.isEmpty { throw ExitCode(65) }
    }
}

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the query cache's hits, misses and invalidations, and where data lives.")

    @Flag(name: .long, help: "Empty the cache and reset its counters.")
    var reset = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let env = options.environment
        let cache = try env.openCache()
        if reset { try await cache.clear() }
        let stats = try await cache.statistics()
        if options.json {
            struct Report: Encodable {
                let cache: CacheStatistics; let hitRate: Double; let catalogDatabase: String; let cacheDatabase: String; let categories: String
            }
            try Output.json(Report(cache: stats, hitRate: stats.hitRate, catalogDatabase: env.home.catalogDatabase,
                                   cacheDatabase: env.home.cacheDatabase, categories: env.categoriesDirectory))
            return
        }
        Output.line("Query cache (category, level)")
        Output.line("  hits           \(stats.hits)")
        Output.line("  misses         \(stats.misses)")
        Output.line("  invalidations  \(stats.invalidations)")
        Output.line("  entries        \(stats.entries)")
        Output.line(String(format: "  hit rate       %.0f%%", stats.hitRate * 100))
        Output.line("Catalog database  \(env.home.catalogDatabase)")
        Output.line("Cache database    \(env.home.cacheDatabase)")
        Output.line("Categories        \(env.categoriesDirectory)")
    }
}

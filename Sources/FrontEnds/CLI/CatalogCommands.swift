import App
import AppCore
import ArgumentParser
import CLICore
import Cache
import Catalog
import Foundation
import Learners
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
        try await CategoriesListing(level: level?.level, json: options.json, verbose: options.verbose).run(on: try await options.app().catalog())
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

    @OptionGroup var page: PageOptions<WordPage>
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await WordsListing(
            category: category, level: level?.level, limit: page.limit, offset: page.offset,
            json: options.json, verbose: options.verbose
        ).run(on: try await options.app().catalog())
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
        let app = try options.app()
        let words = try await CrossSource(catalog: try await app.catalog(), dictionary: app.dictionary).catalogWords(word)
        if options.json {
            try Output.json(WordEntries(word: words.first?.word ?? word, entries: words))
            return
        }
        for (i, w) in words.enumerated() {
            if i > 0 { Output.line() }
            for line in WordCard.lines(w, pictures: options.environment.picturesDirectory) { Output.line(line) }
        }
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every source at once: catalog words, the Mandarin dictionary and your library.",
        discussion: """
            TEXT is looked for in the catalog's headwords, Vietnamese translations (diacritics \
            optional) and English definitions; in the Mandarin dictionary's titles, pinyin \
            (tones optional: xing, xíng, xing2) and bopomofo, once imported (see 'vocab import \
            moe'); and in the words saved to your library from the online dictionary. Each \
            result names its source, its entry (the id 'vocab save' and the library use), a \
            gloss and why it matched. Whole matches come first, then those that start with \
            TEXT, then those that contain it; within each, the catalog, then the dictionary, \
            then the library. A page at a time (--limit up to \(Limits.search.upperBound), \
            --offset); nothing found anywhere exits with 1.

            --pinyin and --bopomofo list the Mandarin dictionary's readings instead: whole \
            readings first, then longer words that start with them (--limit up to \
            \(Limits.characters.upperBound)). Tones are ignored unless --tones is given: then each \
            syllable typed with a tone (xíng, xing2, ㄒㄧㄥˊ) must have it; a pinyin syllable \
            without one matches any tone, a bopomofo syllable without a mark is first tone.

            Examples:
              vocab search cat
              vocab search meo --source catalog
              vocab search 行
              vocab search xing --source moe --limit 10 --offset 10
              vocab search "con mèo" --json
              vocab search apple --source library --user anna
              vocab search --pinyin xing
              vocab search --pinyin xing --offset 30
              vocab search --pinyin xing2 --tones
              vocab search --pinyin "xing zheng"
              vocab search --bopomofo ㄒㄧㄥ
            """)

    @Argument(help: "Text to look for: an English or Vietnamese word, Chinese characters, pinyin or bopomofo.")
    var text: String?

    @Option(name: .long, help: ArgumentHelp("Search only one source: \(SearchRequest.sourceNames.joined(separator: ", ")).", valueName: "source"))
    var source: String?

    @Option(name: .long, help: "Mandarin readings in pinyin, tones optional (xing, xíng, lv for lǜ).")
    var pinyin: String?

    @Option(name: .long, help: "Mandarin readings in bopomofo (zhuyin), tones optional.")
    var bopomofo: String?

    @OptionGroup var page: PageOptions<SearchResultsPage>

    @Flag(name: .long, help: "Readings: match the tones typed in the query exactly.")
    var tones = false

    @Option(name: .customLong("reading-style"), help: "Readings: show pinyin, bopomofo or both (coloured by tone in a terminal).")
    var readingStyle: ReadingStyle = .both

    @Option(name: .long, help: ArgumentHelp("Search this learner's library (see 'vocab users list'); default: your own, \"me\".", valueName: "name"))
    var user: String?

    @OptionGroup var options: GlobalOptions

    private var readings: Bool { pinyin != nil || bopomofo != nil }

    func validate() throws {
        // Text search pages are shorter than reading searches.
        _ = try checked { () throws(Failure) in
            try InputRules.bounded(page.limit, name: "--limit", range: readings ? Limits.characters : Limits.search)
        }
        guard [text, pinyin, bopomofo].compactMap({ $0 }).count == 1 else {
            throw ValidationError("Give exactly one of TEXT, --pinyin or --bopomofo.")
        }
        if readings {
            _ = try checked { () throws(Failure) in try ReadingQuery(pinyin: pinyin, bopomofo: bopomofo) }
            if source != nil || user != nil { throw ValidationError("--source and --user go with TEXT, not --pinyin or --bopomofo.") }
        } else if tones {
            throw ValidationError("--tones goes with --pinyin or --bopomofo.")
        }
        if let text {
            _ = try checked { () throws(Failure) in try SearchRequest(text: text, source: source, limit: page.limit, offset: page.offset) }
        }
    }

    func run() async throws {
        if readings {
            let query = try ReadingQuery(pinyin: pinyin, bopomofo: bopomofo, tones: tones ? .exact : .ignore)
            return try MOEReadingSearch(query: query, limit: page.limit, offset: page.offset, readingStyle: readingStyle, json: options.json)
                .run(in: options.app().moe())
        }
        let request = try SearchRequest(text: text ?? "", source: source, limit: page.limit, offset: page.offset)
        // Saved marks come from the learners wherever the rule keeps them, like every learning command.
        try await options.withApp(database: nil) { app in
            let service = try await app.search()
            let page = try await service.search(request, library: try await library(in: app))
            if options.json {
                try Output.json(page)
            } else if page.results.isEmpty, page.total > 0 {
                Output.line("No results past \(page.offset): \(MOEText.counted(page.total, "result")) match '\(Failure.quote(page.query))'.")
            } else if !page.results.isEmpty {
                SearchListing.print(page)
            }
            if let miss = await service.miss(page) { throw miss }
        }
    }

    /// The saved items of the learner named, or of the command line's own learner: none,
    /// rather than a new user file, when nobody has saved anything yet.
    private func library(in app: VocabApp) async throws -> [SavedItem] {
        if let user {
            let learning = try await app.learning()
            return try await learning.store.items(of: try await learning.learner(named: user).id)
        }
        guard app.hasLearners else { return [] }
        let store = try await app.learning().store
        guard let me = try await store.learner(named: Learner.localName) else { return [] }
        return try await store.items(of: me.id)
    }
}

/// The text form of a search page: one line per result, then the "more" line.
enum SearchListing {
    static func print(_ page: SearchPage) {
        let titles = page.results.map { Word.label(MissingGlyph.shown($0.title), sense: $0.sense) }
        let titleWidth = min(24, titles.map { Output.displayWidth($0) }.max() ?? 0) + 2
        let readingWidth = min(22, page.results.map { Output.displayWidth($0.reading ?? "") }.max() ?? 0) + 2
        var lines = ["\(MOEText.counted(page.total, "result")) for '\(Failure.quote(page.query))' in \(page.sources.map(\.rawValue).joined(separator: ", ")):"]
        lines += zip(page.results, titles).map { r, title in
            Output.pad(title, titleWidth) + Output.pad(r.source.rawValue, 9) + Output.pad(r.reading ?? "", readingWidth)
                + Output.pad(MOEText.gloss(r.gloss), 42) + Output.pad(why(r), 21) + r.reference.description
        }
        if let more = Paging.moreLine(total: page.total, offset: page.offset, shown: page.results.count) { lines.append(more) }
        Output.line(lines.joined(separator: "\n"))
    }

    /// "headword", "pinyin, starts", "translation, inside".
    static func why(_ r: SearchResult) -> String {
        switch r.rank {
        case .exact: r.match.rawValue
        case .prefix: "\(r.match.rawValue), start"
        case .contains: "\(r.match.rawValue), inside"
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
        let catalog = try await options.app().reindexCatalog()
        let categories = try await catalog.categories().count
        let words = try await catalog.wordCount()
        if options.json {
            struct Report: Encodable {
                let database: String
                let categories: Int
                let words: Int
            }
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
        discussion:
            "Also reports clip references (audio.<accent>.recorded or .legacy) that name no file inside Audio/, and pictures (image) that name no SVG of at most 32 KiB inside Pictures/. Exits 0 when the data is valid, 65 when it is not. Nothing is written."
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let source = CatalogSource(directory: options.environment.categoriesDirectory)
        let (files, unreadable) = try source.read()
        var (decoded, issues) = CatalogValidator().validate(files)
        issues = unreadable + issues
        issues += AudioLibrary(app: try options.app()).referenceIssues(decoded, names: files.map(\.name))
        issues += PictureLibrary(root: options.environment.picturesDirectory).referenceIssues(decoded, names: files.map(\.name))
        if options.json {
            struct Report: Encodable {
                let valid: Bool
                let files: Int
                let words: Int
                let issues: [ValidationIssue]
            }
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
        abstract: "Show what the query cache holds and computed, and where data lives.",
        discussion: """
            The cache counts what it computed: misses (nothing cached yet) and invalidations \
            (cached before the catalog changed). It does not count hits, so that a command \
            answered from the cache only reads; --verbose says how each command was answered.

            --pictures shows instead how many entries have a picture (a drawing or an emoji a child can \
            recognise before reading), per category and per level.

            Examples:
              vocab stats
              vocab stats --pictures
              vocab stats --pictures --json
            """)

    @Flag(name: .long, help: "Empty the cache and reset its counts.")
    var reset = false

    @Flag(name: .long, help: "How many entries have a picture, per category and level.")
    var pictures = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        if pictures { return try await showPictures() }
        let env = options.environment
        let cache = try env.openCache()
        if reset { try await cache.clear() }
        let stats = try await cache.statistics()
        if options.json {
            struct Report: Encodable {
                let cache: CacheStatistics
                let catalogDatabase: String
                let cacheDatabase: String
                let categories: String
            }
            try Output.json(
                Report(
                    cache: stats, catalogDatabase: env.home.catalogDatabase,
                    cacheDatabase: env.home.cacheDatabase, categories: env.categoriesDirectory))
            return
        }
        Output.line("Query cache (category, level)")
        Output.line("  entries        \(stats.entries)")
        Output.line("  misses         \(stats.misses)")
        Output.line("  invalidations  \(stats.invalidations)")
        Output.line("Catalog database  \(env.home.catalogDatabase)")
        Output.line("Cache database    \(env.home.cacheDatabase)")
        Output.line("Categories        \(env.categoriesDirectory)")
    }

    private func showPictures() async throws {
        let catalog = try await options.app().catalog()
        let coverage = PictureCoverage(entries: try await catalog.allEntries(), categories: try await catalog.categories())
        if options.json { return try Output.json(coverage) }
        func line(_ row: PictureCoverage.Row) -> String {
            row.name.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: "%7d %8d %6.1f%%", row.entries, row.withPicture, row.percent)
        }
        Output.line("Entries with a picture (a drawing or an emoji a child recognises), by category and by level:")
        Output.line()
        Output.line("".padding(toLength: 22, withPad: " ", startingAt: 0) + "entries  picture      %")
        for row in coverage.byCategory { Output.line(line(row)) }
        Output.line()
        for row in coverage.byLevel { Output.line(line(row)) }
        Output.line()
        Output.line(line(coverage.all))
    }
}

import AppCore
import Catalog
import Vocabulary

/// The plain forms of `vocab words`, `vocab categories` and the Mandarin listings (`lookup`,
/// `strokes`, `radical`, `search --pinyin/--bopomofo`), recognised by hand so the small `vocab`
/// launcher can answer them without argument-parser or the rest of the program. Anything else
/// (help, a bad value, an unknown or repeated flag, `--opt=value`) returns nil and goes to the
/// full program, so errors and help read the same as ever.
public enum FastPath {
    public enum Command: Sendable {
        case words(WordsListing)
        case categories(CategoriesListing)
        case lookup(MOELookupListing)
        case strokes(MOEStrokesListing)
        case radical(MOERadicalListing)
        case readingSearch(MOEReadingSearch)
        case say(SaidBefore.Call, json: Bool)
    }

    public struct Invocation: Sendable {
        public var command: Command
        public var categories: String?
        public var home: String?
        /// The full program this launcher becomes for what it does not answer (resolved, no
        /// links): a clip said before is answered as that program would answer it.
        public var fullProgram: String?

        public func run() async throws {
            switch command {
            case .say(let call, let json): try answer(call, json: json)
            case .words(let listing): try await listing.run(on: try await environment.openCatalog(verbose: listing.verbose))
            case .categories(let listing): try await listing.run(on: try await environment.openCatalog(verbose: listing.verbose))
            case .lookup(let listing): try listing.run(in: environment)
            case .strokes(let listing): try listing.run(in: environment)
            case .radical(let listing): try listing.run(in: environment)
            case .readingSearch(let search): try search.run(in: environment)
            }
        }

        private var environment: VocabEnvironment { VocabEnvironment(categories: categories, home: home) }

        /// A clip said before, from its record, with the places looked for from where the full
        /// program is: the record is the full program's, as it would answer.
        private func answer(_ call: SaidBefore.Call, json: Bool) throws {
            guard let fullProgram else { throw NotAnswered() }
            let environment = VocabEnvironment(categories: categories, home: home, executable: fullProgram)
            guard let record = SaidBeforeIndex(home: environment.home).answer(for: call, in: environment, program: fullProgram) else {
                throw NotAnswered()
            }
            if !record.inCatalog, !json { Output.error(SayReport.notInCatalog(call.text)) }
            if json { try Output.json(record.answer) } else { Output.line(record.answer.line) }
        }
    }

    /// The launcher has no answer of its own (no clip said before, or something changed since):
    /// the full program answers.
    public struct NotAnswered: Error {}

    /// What one command takes besides the options every command shares, and the ranges of its
    /// numbers. A test compares it with argument-parser's definitions (`--experimental-dump-help`)
    /// and the full program's refusals, so the two cannot drift apart.
    ///
    /// Arrays, not sets: a Set of Strings is generic metadata the runtime builds on first use,
    /// looking through every conformance of this static binary, which a launch paid for each.
    public struct Grammar: Sendable {
        public var positional: Int
        public var values: [String] = []
        public var flags: [String] = []
        public var limits: [OptionLimit] = []

        func limit(of option: String) -> ClosedRange<Int>? { limits.first { $0.option == option }?.range }
    }

    /// The numbers an option takes. A struct, not a tuple: an array of tuples holding a
    /// `ClosedRange<Int>` is metadata the runtime builds by name on first use, checking `Int`'s
    /// conformances against every one in this static binary, which each launch paid for.
    public struct OptionLimit: Sendable {
        public var option: String
        public var range: ClosedRange<Int>

        init(_ option: String, _ range: ClosedRange<Int>) {
            self.option = option
            self.range = range
        }
    }

    /// The options every command shares: values and flags.
    public static let sharedValues = ["--categories", "--home"]
    public static let sharedFlags = ["--json", "--verbose"]

    public static let grammars: [String: Grammar] = [
        "words": Grammar(
            positional: 1, values: ["--level", "--limit", "--offset"], limits: [.init("--limit", Limits.page), .init("--offset", Limits.offset)]),
        "categories": Grammar(positional: 0, values: ["--level"]),
        // Only a clip said before, into the store (`SaidBefore`); the full program makes it.
        "say": Grammar(positional: 1, values: ["--accent", "--speed"]),
        "lookup": Grammar(
            positional: 1, values: ["--reading-style", "--limit", "--offset"], flags: ["--compounds"],
            limits: [.init("--limit", Limits.characters), .init("--offset", Limits.offset)]),
        "strokes": Grammar(
            positional: 1, values: ["--radical", "--limit", "--offset"], limits: [.init("--limit", Limits.characters), .init("--offset", Limits.offset)]),
        "radical": Grammar(positional: 1, values: ["--limit", "--offset"], limits: [.init("--limit", Limits.characters), .init("--offset", Limits.offset)]),
        "search": Grammar(
            positional: 0, values: ["--pinyin", "--bopomofo", "--limit", "--offset", "--reading-style"], flags: ["--tones"],
            limits: [.init("--limit", Limits.characters), .init("--offset", Limits.offset)]),
    ]

    /// The arguments after the command name, split by its grammar.
    private struct Parsed {
        var positional: [String] = []
        var values: [String: String] = [:]
        var flags: [String] = []
        let grammar: Grammar

        init?(_ arguments: ArraySlice<String>, _ grammar: Grammar) {
            self.grammar = grammar
            var i = arguments.startIndex
            while i < arguments.endIndex {
                let arg = arguments[i]
                let name = arg == "-v" ? "--verbose" : arg
                if grammar.values.contains(name) || FastPath.sharedValues.contains(name) {
                    // A value that looks like an option is one to argument-parser (or a number it
                    // refuses): the full program says which.
                    guard i + 1 < arguments.endIndex, !arguments[i + 1].hasPrefix("-"), values[name] == nil else { return nil }
                    values[name] = arguments[i + 1]
                    i += 1
                } else if grammar.flags.contains(name) || FastPath.sharedFlags.contains(name) {
                    guard !flags.contains(name) else { return nil }
                    flags.append(name)
                } else {
                    guard !arg.hasPrefix("-") else { return nil }
                    positional.append(arg)
                }
                i += 1
            }
            guard positional.count == grammar.positional else { return nil }
        }

        func number(_ name: String, default value: Int) -> Int? {
            guard let text = values[name] else { return value }
            guard let n = Int(text), let range = grammar.limit(of: name), range.contains(n) else { return nil }
            return n
        }

        func readingStyle() -> ReadingStyle? {
            guard let text = values["--reading-style"] else { return .both }
            return ReadingStyle(rawValue: text)
        }

        var json: Bool { flags.contains("--json") }
    }

    public static func parse(_ arguments: [String]) -> Invocation? {
        guard let name = arguments.first, let grammar = grammars[name],
            let parsed = Parsed(arguments.dropFirst(), grammar)
        else { return nil }
        guard let command = command(name, parsed) else { return nil }
        return Invocation(command: command, categories: parsed.values["--categories"], home: parsed.values["--home"])
    }

    private static func command(_ name: String, _ p: Parsed) -> Command? {
        let verbose = p.flags.contains("--verbose")
        var level: Level?
        if let text = p.values["--level"] {
            guard let parsed = try? InputRules.level(text) else { return nil }
            level = parsed
        }
        switch name {
        case "words":
            guard let limit = p.number("--limit", default: Limits.defaultPage),
                let offset = p.number("--offset", default: 0)
            else { return nil }
            return .words(WordsListing(category: p.positional[0], level: level, limit: limit, offset: offset, json: p.json, verbose: verbose))
        case "categories":
            return .categories(CategoriesListing(level: level, json: p.json, verbose: verbose))
        case "say":
            // What the catalog says (a rebuild, a cache hit) is the full program's to tell.
            guard !verbose, let text = try? InputRules.text(p.positional[0], name: "word") else { return nil }
            var accent: String?
            if let given = p.values["--accent"] {
                guard let parsed = Accent.parse(given) else { return nil }
                accent = parsed.rawValue
            }
            var pace = 1.0
            if let given = p.values["--speed"] {
                guard let parsed = try? InputRules.speed(given) else { return nil }
                pace = parsed
            }
            return .say(SaidBefore.Call(text: text, accent: accent, pace: pace, format: "wav"), json: p.json)
        case "lookup":
            let title = p.positional[0]
            guard (try? InputRules.text(title, name: "word or character")) != nil, let style = p.readingStyle(),
                let limit = p.number("--limit", default: Limits.defaultCharacters),
                let offset = p.number("--offset", default: 0)
            else { return nil }
            return .lookup(
                MOELookupListing(
                    title: title, compounds: p.flags.contains("--compounds"), readingStyle: style,
                    limit: limit, offset: offset, json: p.json))
        case "strokes":
            guard let strokes = MOEStrokesListing.count(p.positional),
                let limit = p.number("--limit", default: Limits.defaultCharacters),
                let offset = p.number("--offset", default: 0)
            else { return nil }
            let radical = p.values["--radical"]
            if let radical, !RadicalInput.isOneCharacter(radical) { return nil }
            return .strokes(MOEStrokesListing(strokes: strokes, radical: radical, limit: limit, offset: offset, json: p.json))
        case "radical":
            guard RadicalInput.isOneCharacter(p.positional[0]),
                let limit = p.number("--limit", default: Limits.defaultCharacters),
                let offset = p.number("--offset", default: 0)
            else { return nil }
            return .radical(MOERadicalListing(radical: p.positional[0], limit: limit, offset: offset, json: p.json))
        case "search":
            guard
                let query = try? ReadingQuery(
                    pinyin: p.values["--pinyin"], bopomofo: p.values["--bopomofo"],
                    tones: p.flags.contains("--tones") ? .exact : .ignore),
                let style = p.readingStyle(),
                let limit = p.number("--limit", default: Limits.defaultSearch),
                let offset = p.number("--offset", default: 0)
            else { return nil }
            return .readingSearch(MOEReadingSearch(query: query, limit: limit, offset: offset, readingStyle: style, json: p.json))
        default:
            return nil
        }
    }
}

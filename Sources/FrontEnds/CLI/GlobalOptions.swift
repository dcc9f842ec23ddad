import App
import AppCore
import ArgumentParser
import CLICore
import Catalog

/// Options every command shares.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder of category JSON files.",
            discussion: "Default: $VOCAB_CATEGORIES, else ./Categories, else the Categories/ installed with vocab.",
            valueName: "dir"))
    public var categories: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder where vocab keeps its databases and caches.",
            discussion: "Default: $VOCAB_HOME, else $XDG_DATA_HOME/vocab, else ~/.local/share/vocab.",
            valueName: "dir"))
    public var home: String?

    @Flag(name: .long, help: "Print JSON instead of text, for scripts.")
    public var json = false

    @Flag(name: .shortAndLong, help: "Say on standard error how the answer was found (index rebuilds, cache hits).")
    public var verbose = false

    public init() {}

    var environment: VocabEnvironment { VocabEnvironment(categories: categories, home: home) }

    /// The running system of this command: one per command, its parts made as the command
    /// touches them. Catalog, audio and Mandarin commands read the files in the home folder;
    /// learning commands pass the engine the rule chose (`withApp`).
    /// `quietCatalog`: say nothing about how the catalog was found (a command that opens it
    /// only for a hint).
    func app(database: DatabaseChoice = .embedded, quietCatalog: Bool = false) throws -> VocabApp {
        let verbose = verbose
        return try VocabApp(
            environment: environment, database: database, use: .command,
            onCatalog: { if !quietCatalog { CatalogOpening.report($0, verbose: verbose) } }, onDiskFull: { Output.error("vocab: \($0)") })
    }
}

/// `--level`, in any case; argument-parser lists the valid levels when it is not one.
struct LevelOption: ExpressibleByArgument, Sendable {
    let level: Level
    init?(argument: String) {
        guard let level = try? InputRules.level(argument) else { return nil }
        self.level = level
    }
    static var allValueStrings: [String] { Level.allCases.map(\.rawValue) }
}

extension Accent: ExpressibleByArgument {
    /// Any spelling `Accent.parse` knows (british, uk, en-gb, american, us…).
    public init?(argument: String) {
        guard let accent = Accent.parse(argument) else { return nil }
        self = accent
    }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// The shared input rules, as argument-parser's validation: a refused value is reported with
/// the usage line, like any other bad option.
func checked<T>(_ body: () throws(Failure) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw ValidationError(error.message)
    }
}

import CLICore
import ArgumentParser
import Catalog

/// Options every catalog command shares.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp(
        "Folder of category JSON files.",
        discussion: "Default: $VOCAB_CATEGORIES, else ./Categories, else the Categories/ installed with vocab.",
        valueName: "dir"))
    public var categories: String?

    @Option(name: .long, help: ArgumentHelp(
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

    func openCatalog(force: Bool = false) async throws -> CatalogService {
        try await environment.openCatalog(verbose: verbose, force: force)
    }
}

/// Parses `--level`, listing the valid levels when it is not one.
struct LevelOption: ExpressibleByArgument, Sendable {
    let level: Level
    init?(argument: String) {
        guard let level = Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }
    static var allValueStrings: [String] { Level.allCases.map(\.rawValue) }
}

import AppCore
import Catalog

/// `vocab categories`: the 20 categories with their word counts (at a level), as text or JSON.
/// Shared by the argument-parser command and the launcher's fast path.
public struct CategoriesListing: Sendable {
    public var level: Level?
    public var json = false
    public var verbose = false

    public init(level: Level? = nil, json: Bool = false, verbose: Bool = false) {
        self.level = level
        self.json = json
        self.verbose = verbose
    }

    public func run(on catalog: CatalogService) async throws {
        let overview = try await catalog.overview(level: level)
        if verbose, let outcome = overview.cache {
            Output.error("vocab: cache \(outcome.rawValue) for (categories, \(level?.rawValue ?? "all levels")).")
        }
        let summaries = overview.summaries
        let total = overview.wordCount
        if json {
            try Output.json(CategoryList(overview, level: level))
            return
        }
        var text = ""
        for s in summaries {
            let c = s.category
            let count = String(s.wordCount)
            text +=
                "\(c.icon)  \(Output.pad(c.id, 22)) \(Output.pad(c.name.en, 24)) \(Output.pad(c.name.vi, 28)) "
                + String(repeating: " ", count: max(0, 4 - count.count)) + count + "\n"
        }
        text +=
            "\(summaries.count) categories, \(total) words" + (level.map { " at \($0.rawValue)" } ?? "")
            + " (a word may belong to more than one category)\n"
        Output.write(text)
    }
}

import AppCore
import Catalog
import TextMatching

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `vocab words`: one page of a category (at a level) as text or JSON. Shared by the
/// argument-parser command and the launcher's fast path, so both print the same bytes.
public struct WordsListing: Sendable {
    public var category: String
    public var level: Level?
    public var limit = Limits.defaultPage
    public var offset = 0
    public var json = false
    public var verbose = false

    public init(
        category: String, level: Level? = nil, limit: Int = Limits.defaultPage, offset: Int = 0,
        json: Bool = false, verbose: Bool = false
    ) {
        self.category = category
        self.level = level
        self.limit = limit
        self.offset = offset
        self.json = json
        self.verbose = verbose
    }

    public func run(on catalog: CatalogService) async throws {
        let page = try await catalog.words(in: category, level: level, limit: limit, offset: offset)
        if verbose, let outcome = page.cache {
            Output.error("vocab: cache \(outcome.rawValue) for (\(page.category.id), \(page.level?.rawValue ?? "all levels")).")
        }
        if json {
            try Output.json(WordPageBody(page))
        } else {
            Output.write(Self.text(page))
        }
    }

    static func text(_ page: WordPage) -> String {
        let levelText = page.level.map { " at \($0.rawValue)" } ?? ""
        if page.rows.isEmpty {
            return page.total == 0
                ? "No words in \(page.category.name.en)\(levelText).\n"
                : "No words past \(page.offset): \(page.category.name.en)\(levelText) has \(page.total).\n"
        }
        var text = "\(page.category.icon) \(page.category.name.en) · \(page.category.name.vi)\(levelText): \(page.total) word\(page.total == 1 ? "" : "s")\n"
        let names = page.rows.map(\.label)
        let width = min(28, names.map { Output.displayWidth($0) }.max() ?? 0) + 2
        let ipaWidth = min(22, page.rows.map { Output.displayWidth($0.britishIPA) + 2 }.max() ?? 0) + 2
        for (w, name) in zip(page.rows, names) {
            text += "  \(Output.pad(name, width))\(Output.pad("/\(w.britishIPA)/", ipaWidth))\(w.vi)\n"
        }
        if let more = Paging.moreLine(total: page.total, offset: page.offset, shown: page.rows.count) {
            text += more + "\n"
        }
        return text
    }
}

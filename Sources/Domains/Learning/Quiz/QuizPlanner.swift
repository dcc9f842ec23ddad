import Catalog

/// Where a quiz's words come from.
public enum QuizSource: Sendable, Equatable {
    /// The catalog.
    case catalog
    /// Items of a learner's library (any source), and wrong answers of their kinds that the
    /// catalog cannot give (other Mandarin meanings).
    case items([QuizItem], extraDistractors: [QuizItem], label: String)
}

/// Gathers the words a quiz may ask and the pool its wrong answers come from.
public struct QuizPlanner: Sendable {
    let catalog: CatalogService

    public init(catalog: CatalogService) {
        self.catalog = catalog
    }

    /// `category` and `level` narrow the asked words for either source.
    public func builder(source: QuizSource, category: String?, level: Level?, answers: AnswerLanguage) async throws -> QuizBuilder {
        var categoryID: String?
        if let category { categoryID = try await catalog.category(named: category).id }
        let everything = try await catalog.allWords().compactMap { QuizItem($0, answers: answers) }
        var items: [QuizItem]
        var distractors = everything
        switch source {
        case .catalog:
            items = everything
        case .items(let saved, let extra, _):
            items = saved
            distractors += extra + saved
        }
        if let categoryID { items = items.filter { $0.categories.contains(categoryID) } }
        if let level { items = items.filter { $0.levels.contains(level) } }
        guard !items.isEmpty else { throw QuizError.noWords(Self.describe(source, categoryID, level, answers)) }
        return QuizBuilder(items: items, distractors: distractors, level: level)
    }

    static func describe(_ source: QuizSource, _ category: String?, _ level: Level?, _ answers: AnswerLanguage) -> String {
        var parts: [String] = []
        if case .items(_, _, let label) = source {
            parts.append(label + (answers == .vi ? " with a Vietnamese translation" : answers == .reading ? " with a Mandarin reading" : ""))
        } else if answers == .reading {
            parts.append("the catalog has no Mandarin readings (save Mandarin words and use --from library)")
        }
        if let category { parts.append("category \(category)") }
        if let level { parts.append("level \(level.rawValue)") }
        return parts.isEmpty ? "the catalog is empty" : parts.joined(separator: " at ")
    }
}

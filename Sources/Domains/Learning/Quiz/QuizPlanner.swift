import Catalog
import Library

/// Where a quiz's words come from.
public enum QuizSource: Sendable, Equatable {
    case catalog
    case library
}

/// Gathers the words a quiz may ask and the pool its wrong answers come from.
public struct QuizPlanner: Sendable {
    let catalog: CatalogService
    let library: WordLibrary

    public init(catalog: CatalogService, library: WordLibrary) {
        self.catalog = catalog
        self.library = library
    }

    /// `category` and `level` narrow the asked words for either source.
    public func builder(source: QuizSource, category: String?, level: Level?, answers: AnswerLanguage) async throws -> QuizBuilder {
        var categoryID: String?
        if let category { categoryID = try await catalog.category(named: category).id }
        let everything = try await catalog.allWords()
        var items: [QuizItem]
        switch source {
        case .catalog:
            items = everything.map { QuizItem($0, answers: answers) }
        case .library:
            items = []
            for entry in try await library.entries() {
                if !entry.catalog.isEmpty {
                    items += entry.catalog.map { QuizItem($0, answers: answers) }
                } else if answers == .en, let definition = entry.saved.definition {
                    // Dictionary-only words have an English definition but no translation or level.
                    items.append(QuizItem(word: entry.saved.word, answer: definition))
                }
            }
        }
        if let categoryID { items = items.filter { $0.categories.contains(categoryID) } }
        if let level { items = items.filter { $0.levels.contains(level) } }
        guard !items.isEmpty else { throw QuizError.noWords(Self.describe(source, categoryID, level, answers)) }
        return QuizBuilder(items: items, distractors: everything.map { QuizItem($0, answers: answers) }, level: level)
    }

    static func describe(_ source: QuizSource, _ category: String?, _ level: Level?, _ answers: AnswerLanguage) -> String {
        var parts: [String] = []
        if source == .library { parts.append("your library has no saved words" + (answers == .vi ? " with a Vietnamese translation" : "")) }
        if let category { parts.append("category \(category)") }
        if let level { parts.append("level \(level.rawValue)") }
        return parts.isEmpty ? "the catalog is empty" : parts.joined(separator: " at ")
    }
}

import Catalog

/// What the four options of a question are.
public enum AnswerLanguage: String, Codable, Sendable, CaseIterable {
    /// The Vietnamese translation.
    case vi
    /// The English definition.
    case en
}

/// A word that can be asked, with the answer in the chosen language.
public struct QuizItem: Sendable, Hashable {
    public var word: String
    public var answer: String
    public var categories: [String]
    public var levels: [Level]

    public init(word: String, answer: String, categories: [String] = [], levels: [Level] = []) {
        self.word = word
        self.answer = answer
        self.categories = categories
        self.levels = levels
    }

    public init(_ word: Word, answers: AnswerLanguage) {
        self.init(word: word.word, answer: answers == .vi ? word.vi : word.definition.en,
                  categories: word.categories, levels: word.levels)
    }
}

public struct Question: Sendable, Hashable {
    public var item: QuizItem
    /// Four options, one of them `item.answer`.
    public var options: [String]
    public var correctIndex: Int

    public var word: String { item.word }
    public var correctAnswer: String { options[correctIndex] }
}

public enum QuizError: Error, Sendable, Equatable, CustomStringConvertible {
    case noWords(String)
    case notEnoughOptions(word: String)

    public var description: String {
        switch self {
        case .noWords(let what): return "there are no words to ask: \(what)."
        case .notEnoughOptions(let word):
            return "cannot make four different answers for '\(word)': the catalog has too few other words."
        }
    }
}

import Catalog

/// What the four options of a question are.
public enum AnswerLanguage: String, Codable, Sendable, CaseIterable {
    /// The Vietnamese translation (catalog words); a Mandarin item's meaning, from the dictionary.
    case vi
    /// The English definition; a Mandarin item's meaning, from the dictionary.
    case en
    /// The reading of Mandarin characters, in pinyin.
    case reading
}

/// A word that can be asked, with the answer in the chosen language.
public struct QuizItem: Sendable, Hashable {
    public var word: String
    public var answer: String
    public var categories: [String]
    public var levels: [Level]
    /// Where the word comes from ("catalog", "dictionary", "moe"): wrong answers come from the
    /// same kind first, so a Mandarin meaning is never offered for an English word.
    public var kind: String

    public init(word: String, answer: String, categories: [String] = [], levels: [Level] = [], kind: String = "catalog") {
        self.word = word
        self.answer = answer
        self.categories = categories
        self.levels = levels
        self.kind = kind
    }

    /// A catalog word; nil for `.reading`, which only Mandarin items have.
    public init?(_ word: Word, answers: AnswerLanguage) {
        guard answers != .reading else { return nil }
        self.init(
            word: word.word, answer: answers == .vi ? word.vi : word.definition.en,
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

import Catalog

/// Picks the words to ask and three wrong answers for each.
///
/// Wrong answers come from words sharing a category and a level with the asked word, so they
/// are plausible; when those run out the choice widens to the category, then the level, then
/// anything, rather than failing.
public struct QuizBuilder: Sendable {
    public static let optionCount = 4

    /// The words that may be asked.
    let items: [QuizItem]
    /// Where wrong answers come from (usually the whole catalog).
    let distractors: [QuizItem]
    /// The level the quiz is at, if one was chosen: "same level" means this one then.
    let level: Level?

    public init(items: [QuizItem], distractors: [QuizItem], level: Level? = nil) {
        self.items = Self.unique(items)
        self.distractors = Self.unique(distractors)
        self.level = level
    }

    public func questions(count: Int, using rng: inout some RandomNumberGenerator) throws -> [Question] {
        guard !items.isEmpty else { throw QuizError.noWords("nothing matches") }
        return try items.shuffled(using: &rng).prefix(max(0, count)).map { try question(for: $0, using: &rng) }
    }

    func question(for item: QuizItem, using rng: inout some RandomNumberGenerator) throws -> Question {
        let levels = level.map { Set([$0]) } ?? Set(item.levels)
        let categories = Set(item.categories)
        func tier(_ c: QuizItem) -> Int {
            let sameCategory = !categories.isDisjoint(with: c.categories)
            let sameLevel = !levels.isDisjoint(with: c.levels)
            let base: Int =
                switch (sameCategory, sameLevel) {
                case (true, true): 0
                case (true, false): 1
                case (false, true): 2
                case (false, false): 3
                }
            return c.kind == item.kind ? base : 4 + base
        }
        let answerKey = item.answer.lowercased()
        let candidates = distractors.filter { $0.word.lowercased() != item.word.lowercased() && $0.answer.lowercased() != answerKey }
        var wrong: [String] = []
        var seen: Set<String> = [answerKey]
        // Shuffle first so the order within a tier is random, then a stable sort keeps it.
        let ordered = candidates.shuffled(using: &rng).enumerated()
            .sorted { (tier($0.element), $0.offset) < (tier($1.element), $1.offset) }.map(\.element)
        for c in ordered where wrong.count < Self.optionCount - 1 {
            if seen.insert(c.answer.lowercased()).inserted { wrong.append(c.answer) }
        }
        guard wrong.count == Self.optionCount - 1 else { throw QuizError.notEnoughOptions(word: item.word) }
        let options = (wrong + [item.answer]).shuffled(using: &rng)
        return Question(item: item, options: options, correctIndex: options.firstIndex(of: item.answer)!)
    }

    /// One item per headword: a word listed in two categories is still one question.
    static func unique(_ items: [QuizItem]) -> [QuizItem] {
        var seen: Set<String> = []
        return items.filter { !$0.answer.isEmpty && seen.insert($0.word.lowercased()).inserted }
    }
}

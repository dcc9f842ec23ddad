import FSRS
import Learners

/// What an adult sees of a child: practice, words learned, how often the first answer was right.
public struct ChildProgress: Sendable, Codable, Equatable {
    public var id: Int64
    public var firstName: String
    /// Local days with at least one review or game answer.
    public var daysPractised: Int
    /// Saved words whose memory lasts three weeks or more.
    public var wordsLearned: Int
    /// Words said well at least once ("Say it"), each a review of its own.
    public var wordsSaidWell: Int
    public var words: Int
    public var answers: Int
    /// Share of answers not rated Again (games and review alike); nil before the first answer.
    public var accuracy: Double?
    public var lastActive: Double?
}

/// A word the class gets wrong: how many Again answers, from how many children.
public struct HardWord: Sendable, Codable, Equatable {
    public var word: String
    public var entry: String
    public var again: Int
    public var answers: Int
    public var children: Int
}

/// Who finished an assignment: every word of it answered at least once.
public struct AssignmentProgress: Sendable, Codable, Equatable {
    public var id: String
    public var title: String
    public var finished: [Int64]
    public var children: Int
}

/// The figures, computed from what any learner store returns (cards and the review log), so
/// both engines give the same numbers.
public enum ClassProgress {
    public struct ChildData: Sendable {
        public var id: Int64
        public var firstName: String
        public var cards: [(item: SavedItem, card: CardRecord)]
        public var reviews: [ReviewEntry]

        public init(id: Int64, firstName: String, cards: [(item: SavedItem, card: CardRecord)], reviews: [ReviewEntry]) {
            self.id = id
            self.firstName = firstName
            self.cards = cards
            self.reviews = reviews
        }
    }

    public static func child(_ data: ChildData, days: LocalDays) -> ChildProgress {
        let again = data.reviews.count { $0.rating == .again }
        return ChildProgress(
            id: data.id, firstName: data.firstName,
            daysPractised: Set(data.reviews.map { days.number(of: $0.reviewedAt) }).count,
            wordsLearned: data.cards.count(where: \.card.isLearned),
            wordsSaidWell: Set(data.reviews.filter(\.wasSpoken).map(\.itemID)).count,
            words: data.cards.count, answers: data.reviews.count,
            accuracy: data.reviews.isEmpty ? nil : Double(data.reviews.count - again) / Double(data.reviews.count),
            lastActive: data.reviews.map(\.reviewedAt).max())
    }

    /// The words with Again answers, most first (then most children, then alphabetically).
    public static func hardWords(_ children: [ChildData], limit: Int = 10) -> [HardWord] {
        var byEntry: [String: HardWord] = [:]
        for child in children {
            let items = Dictionary(uniqueKeysWithValues: child.cards.map { ($0.item.id, $0.item) })
            var seen: Set<String> = []
            for review in child.reviews {
                guard let item = items[review.itemID], item.key.source == .catalog else { continue }
                var word = byEntry[item.key.entry] ?? HardWord(word: item.word, entry: item.key.entry, again: 0, answers: 0, children: 0)
                word.answers += 1
                if review.rating == .again {
                    word.again += 1
                    if seen.insert(item.key.entry).inserted { word.children += 1 }
                }
                byEntry[item.key.entry] = word
            }
        }
        return byEntry.values.filter { $0.again > 0 }
            .sorted { ($0.again, $0.children, $1.word) > ($1.again, $1.children, $0.word) }
            .prefix(limit).map { $0 }
    }

    public static func assignment(_ assignment: Assignment, children: [ChildData]) -> AssignmentProgress {
        let wanted = Set(assignment.entries)
        let finished = children.filter { child in
            let answered = Set(child.cards.filter { $0.card.card.reps > 0 && $0.item.key.source == .catalog }.map(\.item.key.entry))
            return wanted.isSubset(of: answered)
        }.map(\.id)
        return AssignmentProgress(id: assignment.id, title: assignment.title, finished: finished, children: children.count)
    }
}

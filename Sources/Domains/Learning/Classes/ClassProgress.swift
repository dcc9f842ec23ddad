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

/// The figures, computed from what any learner store returns (cards and the running totals of
/// the review log), so both engines give the same numbers and a page costs the same all year.
public enum ClassProgress {
    public struct ChildData: Sendable {
        public var id: Int64
        public var firstName: String
        public var cards: [(item: SavedItem, card: CardRecord)]
        public var totals: ReviewTotals

        public init(id: Int64, firstName: String, cards: [(item: SavedItem, card: CardRecord)], totals: ReviewTotals) {
            self.id = id
            self.firstName = firstName
            self.cards = cards
            self.totals = totals
        }
    }

    public static func child(_ data: ChildData, days: LocalDays) -> ChildProgress {
        let totals = data.totals
        let answers = totals.answers
        return ChildProgress(
            id: data.id, firstName: data.firstName,
            daysPractised: Set(totals.slots.map { days.number(of: ReviewTotals.start(ofSlot: $0.slot)) }).count,
            wordsLearned: data.cards.count(where: \.card.isLearned),
            wordsSaidWell: totals.items.count { $0.spoken > 0 },
            words: data.cards.count, answers: answers,
            accuracy: answers == 0 ? nil : Double(answers - totals.again) / Double(answers),
            lastActive: totals.lastReviewAt)
    }

    /// The words with Again answers, most first (then most children, then alphabetically).
    /// Answers to items removed since are not counted: nothing says which word they were.
    public static func hardWords(_ children: [ChildData], limit: Int = 10) -> [HardWord] {
        var byEntry: [String: HardWord] = [:]
        for child in children {
            let items = Dictionary(uniqueKeysWithValues: child.cards.map { ($0.item.id, $0.item) })
            var seen: Set<String> = []
            for counted in child.totals.items {
                guard let item = items[counted.itemID], item.key.source == .catalog else { continue }
                var word = byEntry[item.key.entry] ?? HardWord(word: item.word, entry: item.key.entry, again: 0, answers: 0, children: 0)
                word.answers += counted.answers
                word.again += counted.again
                if counted.again > 0, seen.insert(item.key.entry).inserted { word.children += 1 }
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

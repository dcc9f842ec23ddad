import FSRS

/// Running totals of a learner's review log, kept by the store in the transaction of each rating
/// and undo, so a progress page reads a few rows per learner however long the log grows (a class
/// page read every child's whole log, and slowed down all year).
///
/// Time is counted in quarter hours of UTC. Every time zone in use is a whole number of quarter
/// hours from UTC, and a learner's day starts on an hour, so each quarter hour falls inside one
/// local day whatever zone or start hour is chosen, now or later: the totals never need
/// recounting when a learner moves, and the days they give are the ones the log gives.
public struct ReviewTotals: Sendable, Equatable {
    /// The reviews of one quarter hour.
    public struct Slot: Sendable, Equatable {
        /// Quarter hours since 1970 (`ReviewTotals.slot(of:)`).
        public var slot: Int64
        public var reviews: Int
        /// Reviews of cards in review (not new or learning), the reviews retention counts.
        public var graded: Int
        /// Of those, the ones not rated Again.
        public var kept: Int

        public init(slot: Int64, reviews: Int, graded: Int, kept: Int) {
            self.slot = slot
            self.reviews = reviews
            self.graded = graded
            self.kept = kept
        }
    }

    /// The reviews of one item, kept after the item is removed (as its log rows are).
    public struct Item: Sendable, Equatable {
        public var itemID: Int64
        public var answers: Int
        public var again: Int
        /// Reviews made by saying the word well (`ReviewEntry.wasSpoken`).
        public var spoken: Int

        public init(itemID: Int64, answers: Int, again: Int, spoken: Int) {
            self.itemID = itemID
            self.answers = answers
            self.again = again
            self.spoken = spoken
        }
    }

    /// What one log row adds to the totals (undo takes it away again).
    public struct Change: Sendable, Equatable {
        public let slot: Int64
        public let item: Int64
        public let graded: Int
        public let kept: Int
        public let again: Int
        public let spoken: Int

        public init(item: Int64, reviewedAt: Double, rating: Rating, before: Phase, clientID: String?) {
            self.item = item
            slot = ReviewTotals.slot(of: reviewedAt)
            graded = before == .review ? 1 : 0
            kept = before == .review && rating != .again ? 1 : 0
            again = rating == .again ? 1 : 0
            spoken = ReviewEntry.isSpoken(clientID: clientID) ? 1 : 0
        }
    }

    public static let slotSeconds = 900.0

    public static func slot(of time: Double) -> Int64 { Int64((time / slotSeconds).rounded(.down)) }
    public static func start(ofSlot slot: Int64) -> Double { Double(slot) * slotSeconds }

    /// By slot, oldest first.
    public var slots: [Slot]
    /// By item id.
    public var items: [Item]
    /// The time of the latest review in the log.
    public var lastReviewAt: Double?

    public init(slots: [Slot], items: [Item], lastReviewAt: Double?) {
        self.slots = slots.sorted { $0.slot < $1.slot }
        self.items = items.sorted { $0.itemID < $1.itemID }
        self.lastReviewAt = lastReviewAt
    }

    /// The totals of a whole log, as the store keeps them rating by rating: what an upgrade or a
    /// copy to another engine writes for a log made before.
    public init(log: [ReviewEntry]) {
        var slots: [Int64: Slot] = [:]
        var items: [Int64: Item] = [:]
        for entry in log {
            let change = entry.totalsChange
            slots[change.slot, default: Slot(slot: change.slot, reviews: 0, graded: 0, kept: 0)].add(change, sign: 1)
            items[change.item, default: Item(itemID: change.item, answers: 0, again: 0, spoken: 0)].add(change, sign: 1)
        }
        self.init(slots: Array(slots.values), items: Array(items.values), lastReviewAt: log.map(\.reviewedAt).max())
    }

    public var answers: Int { items.reduce(0) { $0 + $1.answers } }
    public var again: Int { items.reduce(0) { $0 + $1.again } }
}

extension ReviewTotals.Slot {
    public mutating func add(_ change: ReviewTotals.Change, sign: Int) {
        reviews += sign
        graded += sign * change.graded
        kept += sign * change.kept
    }
}

extension ReviewTotals.Item {
    public mutating func add(_ change: ReviewTotals.Change, sign: Int) {
        answers += sign
        again += sign * change.again
        spoken += sign * change.spoken
    }
}

extension ReviewEntry {
    public var totalsChange: ReviewTotals.Change {
        ReviewTotals.Change(item: itemID, reviewedAt: reviewedAt, rating: rating, before: before.phase, clientID: clientID)
    }
}

extension ReviewLogRow {
    public var totalsChange: ReviewTotals.Change {
        ReviewTotals.Change(item: item, reviewedAt: reviewedAt, rating: rating, before: before.phase, clientID: clientID)
    }
}

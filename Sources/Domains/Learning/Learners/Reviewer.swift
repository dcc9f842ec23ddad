import FSRS
import SeededRandom

/// Local days, for "new cards per day", "due today" and streaks: a day starts at local
/// midnight, `utcOffset` seconds from UTC.
public struct LocalDays: Sendable, Equatable {
    public var utcOffset: Int

    public init(utcOffset: Int) { self.utcOffset = utcOffset }

    /// Epoch seconds of the local midnight that starts the day of `time`.
    public func start(of time: Double) -> Double {
        let local = time + Double(utcOffset)
        return (local / 86_400).rounded(.down) * 86_400 - Double(utcOffset)
    }

    /// The day number of `time` (days since 1970-01-01, locally).
    public func number(of time: Double) -> Int { Int(((time + Double(utcOffset)) / 86_400).rounded(.down)) }
}

/// The cards a learner should see now: due ones first (most overdue first), then new ones up to
/// what is left of the day's allowance.
public struct ReviewQueue: Sendable {
    public var due: [(item: SavedItem, card: CardRecord)]
    public var new: [(item: SavedItem, card: CardRecord)]
    /// All cards due now, beyond `limit`.
    public var dueCount: Int
    /// New cards that may still be introduced today.
    public var newAllowance: Int
    /// When the next card not in this queue falls due, if any.
    public var nextDue: Double?

    public var cards: [(item: SavedItem, card: CardRecord)] { due + new }
}

/// Spaced review with FSRS-6 over a learner store: what to show, and what a rating does.
public struct Reviewer: Sendable {
    public let store: any LearnerStore
    public let days: LocalDays

    public init(store: any LearnerStore, days: LocalDays) {
        self.store = store
        self.days = days
    }

    public func scheduler(for learner: Learner) throws -> Scheduler {
        try Scheduler(parameters: Parameters(desiredRetention: learner.settings.desiredRetention))
    }

    public func queue(for learner: Learner, at now: Double, limit: Int) async throws -> ReviewQueue {
        let all = try await store.cards(of: learner.id)
        let dueNow = all.filter { $0.card.card.phase != .new && $0.card.card.due <= now }.sorted { $0.card.card.due < $1.card.card.due }
        let introducedToday = try await store.reviews(of: learner.id, since: days.start(of: now)).filter { $0.before.phase == .new }.count
        let allowance = max(0, learner.settings.newPerDay - introducedToday)
        let fresh = all.filter { $0.card.card.phase == .new }.sorted { ($0.item.savedAt, $0.item.id) < ($1.item.savedAt, $1.item.id) }
        let due = Array(dueNow.prefix(limit))
        let new = Array(fresh.prefix(min(allowance, max(0, limit - due.count))))
        let shown = Set(due.map(\.item.id) + new.map(\.item.id))
        let nextDue = all.filter { !shown.contains($0.item.id) && $0.card.card.phase != .new }.map(\.card.card.due).min()
        return ReviewQueue(due: due, new: new, dueCount: dueNow.count, newAllowance: allowance, nextDue: nextDue)
    }

    /// Applies a rating. The fuzz comes from a generator seeded by the item and its review
    /// count, so a retried request or a replay schedules the same day.
    public func rate(item: Int64, rating: Rating, learner: Learner, at now: Double,
                     expectedVersion: Int? = nil, clientID: String? = nil) async throws -> RatingOutcome {
        let scheduler = try scheduler(for: learner)
        return try await store.rate(RatingRequest(item: item, learner: learner.id, expectedVersion: expectedVersion, clientID: clientID) { record in
            var rng = SeededGenerator(seed: UInt64(bitPattern: record.itemID) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(record.card.reps))
            // A rating made offline may arrive after a later one of the same card: it counts
            // from that review, never before it (FSRS's elapsed time cannot be negative).
            return scheduler.review(record.card, rating: rating, at: max(now, record.card.lastReview ?? now), using: &rng)
        })
    }

    public func undo(learner: Learner) async throws -> ReviewEntry {
        try await store.undoLastRating(of: learner.id)
    }

    /// When the card would next be due after each rating (without fuzz), for "Good: in 3 days".
    public func preview(_ card: Card, learner: Learner, at now: Double) throws -> [Rating: Double] {
        try scheduler(for: learner).preview(card, at: now)
    }
}

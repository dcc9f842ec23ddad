import FSRS
import Foundation
import SeededRandom

/// A learner's days, as Anki counts them: a day starts at `startHour` (4 am unless the learner
/// chose another hour) in the learner's time zone. One rule for "due tomorrow", FSRS's elapsed
/// days, "new cards per day", "due today" and streaks, so they never disagree about which day
/// a review fell on. The zone's own offset at each moment is used, so days around a daylight
/// saving change are 23 or 25 hours long, as on the learner's clock.
public struct LocalDays: DayCalendar, Equatable {
    public let timeZone: TimeZone
    public let startHour: Int

    /// Anki's default: late study sessions still count for the day they began on.
    public static let defaultStartHour = 4
    public static let startHours = 0...23

    public init(timeZone: TimeZone, startHour: Int = Self.defaultStartHour) {
        self.timeZone = timeZone
        self.startHour = min(max(startHour, Self.startHours.lowerBound), Self.startHours.upperBound)
    }

    private func offset(at time: Double) -> Double {
        Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: time)))
    }

    public func number(of time: Double) -> Int {
        let shifted = time + offset(at: time) - Double(startHour * 3600)
        return Int((shifted / 86_400).rounded(.down))
    }

    public func start(ofDay day: Int) -> Double {
        let local = Double(day) * 86_400 + Double(startHour * 3600)
        // The offset at the answer may differ from the offset at the first guess (a change of
        // daylight saving between them); a second look settles it.
        let guess = local - offset(at: local)
        return local - offset(at: guess)
    }

    /// Epoch seconds of the start of the day of `time`.
    public func start(of time: Double) -> Double { start(ofDay: number(of: time)) }
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
    /// The days of a learner who chose no time zone or start hour (the server's zone).
    public let days: LocalDays

    public init(store: any LearnerStore, days: LocalDays) {
        self.store = store
        self.days = days
    }

    /// The learner's own days: their time zone and start hour where they chose them.
    public func days(for learner: Learner) -> LocalDays {
        LocalDays(
            timeZone: learner.settings.timeZone.flatMap(TimeZone.init(identifier:)) ?? days.timeZone,
            startHour: learner.settings.dayStartsAt ?? days.startHour)
    }

    public func scheduler(for learner: Learner) throws -> Scheduler {
        try Scheduler(parameters: Parameters(desiredRetention: learner.settings.desiredRetention), calendar: days(for: learner))
    }

    public func queue(for learner: Learner, at now: Double, limit: Int) async throws -> ReviewQueue {
        let all = try await store.cards(of: learner.id)
        let dueNow = all.filter { $0.card.card.phase != .new && $0.card.card.due <= now }.sorted { $0.card.card.due < $1.card.card.due }
        let today = days(for: learner).start(of: now)
        let introducedToday = try await store.reviews(of: learner.id, since: today).filter { $0.before.phase == .new }.count
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
    public func rate(
        item: Int64, rating: Rating, learner: Learner, at now: Double,
        expectedVersion: Int? = nil, clientID: String? = nil
    ) async throws -> RatingOutcome {
        let scheduler = try scheduler(for: learner)
        return try await store.rate(
            RatingRequest(item: item, learner: learner.id, expectedVersion: expectedVersion, clientID: clientID) { record in
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

import CivilDate
import FSRS

/// What a parent or teacher asks: what is due, how much was reviewed, how well it was
/// remembered, whether the child keeps at it, and how many words are learned.
public struct ProgressReport: Sendable, Codable, Equatable {
    public struct Day: Sendable, Codable, Equatable {
        /// yyyy-mm-dd, local.
        public var date: String
        public var reviews: Int
    }

    /// Review cards due by the end of today (overdue included).
    public var dueToday: Int
    public var dueTomorrow: Int
    /// Due after today and by the end of the seventh day from now.
    public var dueNext7Days: Int
    /// Cards not yet seen.
    public var new: Int
    public var items: Int
    /// Cards `CardRecord.isLearned`.
    public var learned: Int
    /// The last 30 local days, oldest first, today last.
    public var reviewsPerDay: [Day]
    /// Share of ratings above Again among reviews of cards in review (not learning), last 30 days.
    public var retention: Double?
    public var reviewsInRetention: Int
    /// Days in a row with at least one review, up to today (or yesterday when today has none yet).
    public var streak: Int

    /// The figures from the cards and the log's running totals: a few rows however long the log.
    public static func make(cards: [(item: SavedItem, card: CardRecord)], totals: ReviewTotals, now: Double, days: LocalDays) -> ProgressReport {
        let today = days.number(of: now)
        func day(_ time: Double) -> Int { days.number(of: time) }
        let scheduled = cards.map(\.card.card).filter { $0.phase != .new }
        let dueToday = scheduled.filter { day($0.due) <= today }.count
        let dueTomorrow = scheduled.filter { day($0.due) == today + 1 }.count
        let next7 = scheduled.filter { (today + 1...today + 7).contains(day($0.due)) }.count
        let learned = cards.filter(\.card.isLearned).count

        var perDay: [Int: Int] = [:]
        var graded = 0
        var kept = 0
        var reviewedDays: Set<Int> = []
        for slot in totals.slots {
            // A quarter hour lies inside one local day (`ReviewTotals`): its start says which.
            let d = day(ReviewTotals.start(ofSlot: slot.slot))
            reviewedDays.insert(d)
            guard d > today - 30 else { continue }
            perDay[d, default: 0] += slot.reviews
            graded += slot.graded
            kept += slot.kept
        }
        let series = (today - 29...today).map { Day(date: Self.date(ofDayNumber: $0), reviews: perDay[$0] ?? 0) }
        let retention = graded == 0 ? nil : Double(kept) / Double(graded)

        var streak = 0
        var cursor = reviewedDays.contains(today) ? today : today - 1
        while reviewedDays.contains(cursor) {
            streak += 1
            cursor -= 1
        }
        return ProgressReport(
            dueToday: dueToday, dueTomorrow: dueTomorrow, dueNext7Days: next7, new: cards.count - scheduled.count,
            items: cards.count, learned: learned, reviewsPerDay: series, retention: retention,
            reviewsInRetention: graded, streak: streak)
    }

    /// yyyy-mm-dd of a day number (days since 1970-01-01), in the proleptic Gregorian calendar.
    static func date(ofDayNumber n: Int) -> String {
        let (y, m, d) = CivilDate.of(day: n)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}

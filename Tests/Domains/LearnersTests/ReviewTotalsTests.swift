import FSRS
import Foundation
import PostgresLearners
import PostgresStore
import SQLiteDB
import SeededRandom
import TestSupport
import Testing

@testable import Learners

@Suite("Running totals of the review log: what progress pages read instead of the whole log")
struct ReviewTotalsTests {
    func card(_ phase: Phase) -> Card {
        Card(phase: phase, step: nil, memory: nil, due: 0, lastReview: nil, reps: 1, lapses: 0, scheduledDays: 1)
    }

    func review(_ item: Int64, _ at: Double, _ rating: Rating, before: Phase, clientID: String? = nil) -> ReviewEntry {
        ReviewEntry(id: 0, itemID: item, reviewedAt: at, rating: rating, elapsedDays: 0, before: card(before), after: card(.review), clientID: clientID)
    }

    @Test(
        "every quarter hour lies inside one local day: zones a quarter or a half hour from UTC, any start hour, across daylight saving",
        arguments: ["Asia/Kathmandu", "America/St_Johns", "Australia/Adelaide", "Europe/London", "Asia/Ho_Chi_Minh", "Pacific/Chatham"])
    func quarterHoursStayInsideDays(_ zone: String) throws {
        let first = ReviewTotals.slot(of: 1_767_225_600) // 2026-01-01T00:00Z
        for startHour in [0, 4, 23] {
            let days = LocalDays(timeZone: try #require(TimeZone(identifier: zone)), startHour: startHour)
            let split = (first..<first + 366 * 96).first { slot in
                let start = ReviewTotals.start(ofSlot: slot)
                return days.number(of: start) != days.number(of: start + ReviewTotals.slotSeconds - 0.001)
            }
            #expect(split == nil, "\(zone), day from \(startHour):00: slot \(split ?? 0) spans two days")
        }
    }

    @Test("a log counted whole: reviews by quarter hour, retention's reviews, Again and words said well by item")
    func countsALog() {
        let t = 1_790_000_000.0 - 1_790_000_000.0.truncatingRemainder(dividingBy: 900)
        let totals = ReviewTotals(log: [
            review(1, t + 10, .good, before: .new),
            review(1, t + 899, .again, before: .review),
            review(2, t + 900, .good, before: .review, clientID: "said-abc"),
            review(2, t + 3600, .hard, before: .review, clientID: "offline-1"),
        ])
        #expect(
            totals.slots == [
                .init(slot: ReviewTotals.slot(of: t), reviews: 2, graded: 1, kept: 0),
                .init(slot: ReviewTotals.slot(of: t + 900), reviews: 1, graded: 1, kept: 1),
                .init(slot: ReviewTotals.slot(of: t + 3600), reviews: 1, graded: 1, kept: 1),
            ])
        #expect(totals.items == [.init(itemID: 1, answers: 2, again: 1, spoken: 0), .init(itemID: 2, answers: 2, again: 0, spoken: 1)])
        #expect(totals.answers == 4 && totals.again == 1 && totals.lastReviewAt == t + 3600)
        #expect(ReviewTotals(log: []) == ReviewTotals(slots: [], items: [], lastReviewAt: nil))
    }

    @Test("the progress report from totals is the report the log gives, day by day, in the learner's zone")
    func reportFromTotals() {
        let days = LocalDays(timeZone: TimeZone(identifier: "Asia/Kathmandu")!, startHour: 4)
        let now = 1_790_000_000.0
        var rng = SeededGenerator(seed: 7)
        var log: [ReviewEntry] = []
        for _ in 0..<2_000 {
            let at = now - Double(Int.random(in: 0..<(60 * 86_400), using: &rng))
            log.append(
                review(
                    Int64.random(in: 1...30, using: &rng), at, Rating.allCases.randomElement(using: &rng)!,
                    before: [.new, .learning, .review].randomElement(using: &rng)!))
        }
        let report = ProgressReport.make(cards: [], totals: ReviewTotals(log: log), now: now, days: days)
        let today = days.number(of: now)
        let recent = log.filter { days.number(of: $0.reviewedAt) > today - 30 }
        #expect(report.reviewsPerDay.map(\.reviews).reduce(0, +) == recent.count)
        #expect(report.reviewsPerDay.last?.reviews == recent.count { days.number(of: $0.reviewedAt) == today })
        let graded = recent.filter { $0.before.phase == .review }
        #expect(report.reviewsInRetention == graded.count)
        #expect(report.retention == Double(graded.count { $0.rating != .again }) / Double(graded.count))
    }
}

@Suite("The totals on user.sqlite and on PostgreSQL are kept with every rating and undo")
struct StoredTotalsTests {
    let t0 = 1_790_000_000.0

    @Test(
        "after ratings, undos and a removed item the totals are the log counted whole; another learner's stay apart; deleting the learner deletes them",
        arguments: Engine.allCases)
    func keptWithTheLog(_ engine: Engine) async throws {
        let fixture = try await LearnerStoreFixture.make(engine)
        do { try await keptWithTheLog(fixture.store) } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    func keptWithTheLog(_ store: any LearnerStore) async throws {
        let anna = try await store.createLearner(name: "anna", at: t0)
        let ben = try await store.createLearner(name: "ben", at: t0)
        let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
        var items: [Int64] = []
        for word in ["cat", "dog", "fish"] {
            items.append(try await store.save(ItemKey(.catalog, "animals/\(word)"), word: word, details: nil, for: anna.id, at: t0).item.id)
        }
        let benItem = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: ben.id, at: t0).item.id
        var rng = SeededGenerator(seed: 3)
        var at = t0
        for n in 0..<60 {
            at += Double(Int.random(in: 60...40_000, using: &rng))
            let item = items.randomElement(using: &rng)!
            let clientID = n % 7 == 0 ? "said-\(n)" : n % 3 == 0 ? "c-\(n)" : nil
            _ = try await reviewer.rate(item: item, rating: Rating.allCases.randomElement(using: &rng)!, learner: anna, at: at, clientID: clientID)
            if n % 11 == 5 { _ = try await reviewer.undo(learner: anna) }
        }
        _ = try await reviewer.rate(item: benItem, rating: .again, learner: ben, at: at)
        #expect(try await store.remove(items[2], of: anna.id))

        let kept = try await store.totals(of: anna.id)
        let log = try await store.reviews(of: anna.id, since: -.infinity)
        #expect(log.count == 60 - 5)
        #expect(kept == ReviewTotals(log: log))
        #expect(kept.items.contains { $0.itemID == items[2] }, "a removed item's answers stay counted, as its log rows stay")
        #expect(try await store.totals(of: ben.id) == ReviewTotals(log: try await store.reviews(of: ben.id, since: -.infinity)))
        #expect(try await store.totals(of: ben.id).answers == 1)

        // A class page's read: every learner's cards and totals at once, the same as one by one.
        let records = try await store.records(of: [anna.id, ben.id, 9_999])
        #expect(Set(records.keys) == [anna.id, ben.id, 9_999])
        for id in [anna.id, ben.id] {
            #expect(records[id]?.totals == (try await store.totals(of: id)))
            #expect(records[id]?.cards.map(\.card) == (try await store.cards(of: id)).map(\.card))
            #expect(records[id]?.cards.map(\.item) == (try await store.cards(of: id)).map(\.item))
        }
        #expect(records[9_999]?.cards.isEmpty == true && records[9_999]?.totals == ReviewTotals(slots: [], items: [], lastReviewAt: nil))

        // Undoing every rating leaves nothing counted, not rows of zeros.
        while (try? await reviewer.undo(learner: anna)) != nil {}
        #expect(try await store.totals(of: anna.id) == ReviewTotals(slots: [], items: [], lastReviewAt: nil))
        #expect(try await store.deleteLearner(ben.id))
        #expect(try await store.totals(of: ben.id) == ReviewTotals(slots: [], items: [], lastReviewAt: nil))
    }

    @Test("user.sqlite of the previous version: the totals are counted from the log it holds")
    func sqliteUpgradeCounts() async throws {
        let dir = try TemporaryDirectory("totals-upgrade")
        defer { dir.remove() }
        let path = dir.file("user.sqlite")
        do {
            let db = try Database(path: path)
            try Migrator(file: "user.sqlite", steps: UserDatabase.migrator.steps.filter { $0.version <= 5 }).migrate(db)
            try db.execute(Self.oldLog(t0: t0))
        }
        let store = try SQLiteLearnerStore(path: path)
        for learner: Int64 in [7, 8] {
            let log = try await store.reviews(of: learner, since: -.infinity)
            #expect(!log.isEmpty)
            #expect(try await store.totals(of: learner) == ReviewTotals(log: log))
        }
    }

    @Test("a PostgreSQL database of the previous version: the totals are counted from the log it holds")
    func postgresUpgradeCounts() async throws {
        let server = try TestPostgres.shared()
        let url = try server.createDatabase("totals-upgrade")
        let database = try PostgresPool(url: url, maximumConnections: 2)
        database.start()
        do {
            let previous = PostgresMigrator(component: "learners", steps: PostgresLearnerStore.migrator.steps.filter { $0.version <= 3 })
            try await previous.migrate(database)
            _ = try await server.query(Self.oldLog(t0: t0), database: url.postgresDatabaseName)
            #expect(try await PostgresLearnerStore.migrator.migrate(database).map(\.version) == [4])
            let store = PostgresLearnerStore(database: database)
            for learner: Int64 in [7, 8] {
                let log = try await store.reviews(of: learner, since: -.infinity)
                #expect(!log.isEmpty)
                #expect(try await store.totals(of: learner) == ReviewTotals(log: log))
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }

    /// Two learners' logs as the previous version wrote them, in SQL both engines read.
    static func oldLog(t0: Double) -> String {
        var rows: [String] = []
        for n in 0..<40 {
            let learner = 7 + n % 2
            let phase = n < 4 ? "new" : n % 5 == 0 ? "learning" : "review"
            let before = #"{"due":0,"lapses":0,"phase":"\#(phase)","reps":1,"scheduledDays":1}"#
            let after = #"{"due":0,"lapses":0,"phase":"review","reps":2,"scheduledDays":3}"#
            let client = n % 6 == 0 ? "'said-\(n)'" : "NULL"
            rows.append(
                "(\(learner), \(1 + n % 4), \(t0 + Double(n) * 5_000), \(1 + n % 4), 1, '\(before)', '\(after)', \(client))")
        }
        return """
            INSERT INTO learners(id, name, name_key, created_at) VALUES (7, 'anna', 'anna', \(t0)), (8, 'ben', 'ben', \(t0));
            INSERT INTO reviews(learner_id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id) VALUES
            \(rows.joined(separator: ",\n"));
            """
    }
}

import FSRS
import Foundation
import Learners
import SeededRandom
import TestSupport
import Testing

/// The product's days against Anki's own: reviews at any hour, Anki (its Rust backend, in a
/// collection whose day starts at 4 am in Asia/Ho_Chi_Minh) counting the days between them
/// itself. Our scheduler, given `LocalDays` for the same zone and hour, must reach Anki's memory
/// state by its ordinary review path. Fixture: `python3 scripts/fsrs-oracle.py --day-rule`
/// (kept with the other Anki fixture in FSRSTests/Fixtures).
@Suite("Review days agree with Anki's")
struct AnkiDayRuleTests {
    struct Fixture: Decodable {
        struct History: Decodable {
            let ratings: [Int]
            let times: [Double]
            let stability: Double
            let difficulty: Double
        }
        let ankiVersion: String
        let timeZone: String
        let dayStartsAt: Int
        let histories: [History]
    }

    static func fixture() throws -> Fixture {
        let path = Repository.root + "/Tests/Domains/FSRSTests/Fixtures/anki-day-rule.json"
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The final memory state of one history, reviewed in order by `scheduler`.
    static func memory(_ history: Fixture.History, _ scheduler: Scheduler) throws -> MemoryState {
        var card = Card(due: history.times[0])
        var rng = SeededGenerator(seed: 1)
        for (rating, time) in zip(history.ratings, history.times) {
            card = scheduler.review(card, rating: try #require(Rating(rawValue: rating)), at: time, using: &rng).card
        }
        return try #require(card.memory)
    }

    /// The tolerances of the whole-day oracle (AnkiOracleTests): Anki computes in f32.
    static func matches(_ ours: MemoryState, _ anki: Fixture.History) -> Bool {
        abs(ours.stability - anki.stability) <= 2e-5 * anki.stability + 1e-6 && abs(ours.difficulty - anki.difficulty) <= 2e-5
    }

    @Test("200 histories with reviews at any hour reach Anki's memory states; py-fsrs's 24-hour rule does not")
    func sameStatesAsAnki() throws {
        let fixture = try Self.fixture()
        #expect(fixture.histories.count >= 200)
        let days = LocalDays(timeZone: try #require(TimeZone(identifier: fixture.timeZone)), startHour: fixture.dayStartsAt)
        let anki = try Scheduler(parameters: Parameters(fuzz: false), calendar: days)
        let hours24 = try Scheduler(parameters: Parameters(fuzz: false))
        var differ24 = 0
        var worst = 0.0
        for (index, history) in fixture.histories.enumerated() {
            let ours = try Self.memory(history, anki)
            worst = max(worst, abs(ours.stability - history.stability) / history.stability)
            #expect(
                Self.matches(ours, history), "history #\(index): S \(ours.stability) D \(ours.difficulty) vs Anki \(history.stability) \(history.difficulty)")
            if !Self.matches(try Self.memory(history, hours24), history) { differ24 += 1 }
        }
        print(
            "Anki \(fixture.ankiVersion) day rule (\(fixture.timeZone), \(fixture.dayStartsAt) am): \(fixture.histories.count) histories, "
                + "max relative stability error \(worst); whole 24-hour periods would differ in \(differ24)")
        // The fixture must be able to tell the rules apart, or it proves nothing.
        #expect(differ24 >= 20)
    }
}

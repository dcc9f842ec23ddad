import FSRS
import Foundation
import Learners
import SeededRandom
import Testing

@Suite("The review log's card JSON")
struct CardJSONTests {
    @Test("the writer's card JSON is byte for byte what JSONEncoder writes, and reads back as the same card")
    func sameAsTheEncoder() throws {
        let scheduler = try Scheduler()
        var rng = SeededGenerator(seed: 42)
        var pick = SeededGenerator(seed: 7)
        var cards = [Card(due: 1_790_000_000), Card(due: 1_790_000_000.25)]
        for start in [1_790_000_000.0, 1_790_000_123.456] {
            var card = Card(due: start)
            var now = start
            for _ in 0..<40 {
                let rating = Rating(rawValue: Int.random(in: 1...4, using: &pick))!
                card = scheduler.review(card, rating: rating, at: now, using: &rng).card
                cards.append(card)
                now = max(now + 61, card.due + Double(Int.random(in: 0...86_400, using: &pick)))
            }
        }
        #expect(Set(cards.map(\.phase)) == Set(Phase.allCases), "every phase is written")
        #expect(cards.contains { $0.step != nil } && cards.contains { $0.memory != nil })
        for card in cards {
            let fast = try LearnerCoding.cardJSON(card)
            #expect(fast == (try LearnerCoding.json(card)))
            #expect(try JSONDecoder().decode(Card.self, from: Data(fast.utf8)) == card)
        }
    }
}

import SeededRandom
import Testing

@testable import FSRS

/// Vectors published with fsrs-rs / py-fsrs for the FSRS-6 default weights.
@Suite struct PublishedVectorTests {
    let scheduler = try! Scheduler()

    @Test func memoryStateAfterPublishedHistory() throws {
        let history: [(rating: Rating, elapsedDays: Double)] = [
            (.again, 0), (.good, 0), (.good, 1), (.good, 3), (.good, 8), (.good, 21),
        ]
        let state = try #require(scheduler.memoryState(afterHistory: history))
        #expect(abs(state.stability - 53.62691) < 1e-4)
        #expect(abs(state.difficulty - 6.3574867) < 1e-4)
    }

    @Test(
        arguments: zip(
            Rating.allCases,
            [
                (0.212, 6.4133), (1.2931, 5.11217071), (2.3065, 2.11810397), (8.2956, 1.0),
            ]))
    func firstReview(rating: Rating, expected: (Double, Double)) throws {
        let state = try #require(scheduler.memoryState(afterHistory: [(rating, 0)]))
        #expect(abs(state.stability - expected.0) < 1e-4)
        #expect(abs(state.difficulty - expected.1) < 1e-4)
    }

    @Test func firstReviewThroughTheScheduler() {
        for (rating, expected) in zip(Rating.allCases, [0.212, 1.2931, 2.3065, 8.2956]) {
            var rng = SeededGenerator(seed: 1)
            let review = scheduler.review(Card(due: 0), rating: rating, at: 1_000, using: &rng)
            #expect(abs(review.card.memory!.stability - expected) < 1e-4)
        }
    }

    @Test func intervalsAtStabilityOneForRetention10To100Percent() throws {
        // 0.1 gives 3,116,769 days, so lift the cap to see the raw values.
        let wide = try Scheduler(parameters: Parameters(maximumInterval: 10_000_000))
        let retentions = (1...10).map { Double($0) / 10 }
        let intervals = retentions.map { wide.interval(forStability: 1, retention: $0) }
        #expect(intervals == [3_116_769, 34_793, 2_508, 387, 90, 27, 9, 3, 1, 1])
    }

    @Test func defaultCapClampsTheSameVector() {
        #expect(scheduler.interval(forStability: 1, retention: 0.1) == 36_500)
        #expect(scheduler.interval(forStability: 1, retention: 1.0) == 1)
        #expect(scheduler.interval(forStability: 1) == 1) // desired retention 0.9 → exactly S
        #expect(scheduler.interval(forStability: 100) == 100)
    }
}

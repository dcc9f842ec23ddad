import Foundation
import SeededRandom
import Testing

@testable import FSRS

private let day = 86_400.0
private let t0 = 1_750_000_000.0 // an arbitrary epoch second

private func scheduler(_ parameters: Parameters = Parameters(fuzz: false)) -> Scheduler {
    try! Scheduler(parameters: parameters)
}

@Suite struct LearningTests {
    @Test func goodWalksTheLearningStepsThenGraduates() throws {
        let s = scheduler()
        var rng = SeededGenerator(seed: 7)
        let first = s.review(Card(due: t0), rating: .good, at: t0, using: &rng)
        #expect(first.card.phase == .learning)
        #expect(first.card.step == 1)
        #expect(first.card.due == t0 + 600)
        #expect(first.card.scheduledDays == 0)
        #expect(first.log.phaseBefore == .new)

        let second = s.review(first.card, rating: .good, at: first.card.due, using: &rng)
        #expect(second.card.phase == .review)
        #expect(second.card.step == nil)
        let stability = try #require(second.card.memory?.stability)
        let days = s.interval(forStability: stability)
        #expect(days >= 1)
        #expect(second.card.scheduledDays == days)
        #expect(second.card.due == first.card.due + Double(days) * day)
        #expect(second.card.reps == 2)
        #expect(second.card.lapses == 0)
        // Ten minutes later is the same day: the short-term formula applied, and Good
        // never lowers stability.
        #expect(second.log.elapsedDays == 0)
        #expect(stability >= first.card.memory!.stability)
    }

    @Test func againAndHardOnTheFirstStep() {
        let s = scheduler()
        var rng = SeededGenerator(seed: 7)
        let again = s.review(Card(due: t0), rating: .again, at: t0, using: &rng)
        #expect(again.card.phase == .learning)
        #expect(again.card.step == 0)
        #expect(again.card.due == t0 + 60)
        let hard = s.review(Card(due: t0), rating: .hard, at: t0, using: &rng)
        #expect(hard.card.step == 0)
        #expect(hard.card.due == t0 + 330) // halfway between 1 and 10 minutes
    }

    @Test func easyFromNewGraduatesAtOnce() {
        let s = scheduler()
        var rng = SeededGenerator(seed: 7)
        let review = s.review(Card(due: t0), rating: .easy, at: t0, using: &rng)
        #expect(review.card.phase == .review)
        #expect(review.card.step == nil)
        #expect(review.card.scheduledDays == 8) // S0(Easy) = 8.2956 at 90 % retention
        #expect(review.card.due == t0 + 8 * day)
    }

    @Test func withoutLearningStepsAnyFirstAnswerGraduates() {
        let s = scheduler(Parameters(learningSteps: [], fuzz: false))
        var rng = SeededGenerator(seed: 7)
        let review = s.review(Card(due: t0), rating: .again, at: t0, using: &rng)
        #expect(review.card.phase == .review)
        #expect(review.card.lapses == 0) // a new card cannot lapse
    }

    @Test func cardPastShortenedStepsGraduatesOnPass() {
        let s = scheduler(Parameters(learningSteps: [60], fuzz: false))
        var card = Card(due: t0)
        card.phase = .learning
        card.step = 3 // scheduled under a longer step list
        card.memory = MemoryState(stability: 2, difficulty: 5)
        card.lastReview = t0 - 60
        var rng = SeededGenerator(seed: 7)
        #expect(s.review(card, rating: .hard, at: t0, using: &rng).card.phase == .review)
        let again = s.review(card, rating: .again, at: t0, using: &rng)
        #expect(again.card.phase == .learning)
        #expect(again.card.step == 0)
    }
}

@Suite struct ReviewPhaseTests {
    func graduated(_ s: Scheduler) -> Card {
        var rng = SeededGenerator(seed: 3)
        return s.review(Card(due: t0), rating: .easy, at: t0, using: &rng).card
    }

    @Test func againInReviewGoesToRelearningAndCountsALapse() {
        let s = scheduler()
        var rng = SeededGenerator(seed: 3)
        let card = graduated(s)
        let lapse = s.review(card, rating: .again, at: card.due, using: &rng)
        #expect(lapse.card.phase == .relearning)
        #expect(lapse.card.step == 0)
        #expect(lapse.card.lapses == 1)
        #expect(lapse.card.due == card.due + 600)
        #expect(lapse.log.phaseBefore == .review)
        #expect(lapse.log.elapsedDays == card.scheduledDays)
        #expect(lapse.card.memory!.stability < card.memory!.stability)

        let back = s.review(lapse.card, rating: .good, at: lapse.card.due, using: &rng)
        #expect(back.card.phase == .review)
        #expect(back.card.lapses == 1)
        #expect(back.card.scheduledDays >= 1)
    }

    @Test func againWithoutRelearningStepsStaysInReview() {
        let s = scheduler(Parameters(relearningSteps: [], fuzz: false))
        var rng = SeededGenerator(seed: 3)
        let card = graduated(s)
        let lapse = s.review(card, rating: .again, at: card.due, using: &rng)
        #expect(lapse.card.phase == .review)
        #expect(lapse.card.lapses == 1)
        #expect(lapse.card.scheduledDays == s.interval(forStability: lapse.card.memory!.stability))
    }

    @Test func lapseUsesLongTermFormulaAfterADay() throws {
        let s = scheduler()
        var rng = SeededGenerator(seed: 3)
        let card = graduated(s)
        let lapse = s.review(card, rating: .again, at: card.due, using: &rng)
        let expected = try #require(s.memoryState(afterHistory: [(.easy, 0), (.again, Double(card.scheduledDays))]))
        #expect(lapse.card.memory == expected)
        #expect(lapse.log.retrievability != nil)
    }

    @Test func intervalsNeverExceedTheMaximum() {
        for fuzz in [false, true] {
            let s = scheduler(Parameters(maximumInterval: 30, fuzz: fuzz))
            var rng = SeededGenerator(seed: 11)
            var card = Card(due: t0)
            var longest = 0
            for _ in 0..<25 {
                card = s.review(card, rating: .easy, at: card.due, using: &rng).card
                #expect(card.scheduledDays <= 30)
                #expect(card.due - card.lastReview! <= 30 * day)
                longest = max(longest, card.scheduledDays)
            }
            #expect(longest == 30) // the cap was actually reached, not just never approached
        }
        let s = scheduler()
        #expect(s.interval(forStability: 36_500, retention: 0.7) == 36_500)
        #expect(s.interval(forStability: .infinity) == 36_500)
        #expect(s.interval(forStability: .nan) == 1)
        #expect(s.interval(forStability: 0) == 1)
    }

    @Test func sameDayPassesNeverLowerStability() {
        let s = scheduler()
        for stability in [0.01, 0.5, 1, 2.3, 10, 100, 1_000, 30_000] {
            for rating in [Rating.hard, .good, .easy] {
                let before = MemoryState(stability: stability, difficulty: 5)
                let after = s.nextMemoryState(after: before, rating: rating, elapsedDays: 0)
                #expect(after.stability >= stability, "\(rating) at S=\(stability)")
            }
            let again = s.nextMemoryState(after: MemoryState(stability: stability, difficulty: 5), rating: .again, elapsedDays: 0)
            #expect(again.stability < stability)
        }
    }

    @Test func reviewsWithinADayUseTheShortTermFormula() {
        let s = scheduler()
        let memory = MemoryState(stability: 20, difficulty: 5)
        var card = Card(
            phase: .review, step: nil, memory: memory, due: t0 + 20 * day,
            lastReview: t0, reps: 3, lapses: 0, scheduledDays: 20)
        var rng = SeededGenerator(seed: 1)
        let early = s.review(card, rating: .good, at: t0 + 23 * 3600, using: &rng)
        #expect(early.log.elapsedDays == 0)
        #expect(early.card.memory == s.nextMemoryState(after: memory, rating: .good, elapsedDays: 0))
        card.lastReview = t0 - 3600
        let nextDay = s.review(card, rating: .good, at: t0 + 23 * 3600, using: &rng)
        #expect(nextDay.log.elapsedDays == 1)
        #expect(nextDay.card.memory == s.nextMemoryState(after: memory, rating: .good, elapsedDays: 1))
    }

    @Test func exactlyOneDayLaterIsOneDayDespiteEpochRounding() {
        // Two independently stored times 24 h apart straddling 2^31 s (2038): as Doubles they
        // subtract to 0.99999999999724 days. Found by replaying py-fsrs traces.
        let last = 2_147_483_647.2
        let now = 2_147_570_047.2
        #expect((now - last) / day < 1)
        #expect(Scheduler.wholeDays(from: last, to: now) == 1)
        #expect(Scheduler.wholeDays(from: last, to: now - 1) == 0)
        #expect(Scheduler.wholeDays(from: now, to: last) == 0)
    }

    @Test func logsReplayToTheSameMemory() throws {
        let s = try Scheduler()
        var rng = SeededGenerator(seed: 99)
        var choice = SeededGenerator(seed: 5)
        var card = Card(due: t0)
        var history: [(rating: Rating, elapsedDays: Double)] = []
        for _ in 0..<60 {
            let rating = Rating(rawValue: Int(choice.next() % 4) + 1)!
            // Review at, before or after the due time, sometimes hours late.
            let jitter = Double(Int(choice.next() % 5) - 2) * 0.3
            let now = max(card.due + jitter * max(card.due - (card.lastReview ?? card.due), 3600), card.lastReview ?? t0)
            let review = s.review(card, rating: rating, at: now, using: &rng)
            history.append((review.log.rating, Double(review.log.elapsedDays)))
            #expect(review.log.memoryBefore == card.memory)
            #expect(review.log.memoryAfter == review.card.memory)
            card = review.card
        }
        #expect(s.memoryState(afterHistory: history) == card.memory)
        #expect(card.reps == 60)
    }
}

@Suite struct FuzzTests {
    func reviewCard(stability: Double) -> Card {
        Card(
            phase: .review, step: nil, memory: MemoryState(stability: stability, difficulty: 5),
            due: t0, lastReview: t0 - stability * day, reps: 5, lapses: 0, scheduledDays: Int(stability))
    }

    @Test func sameSeedSameDueDifferentSeedsDiffer() throws {
        let s = try Scheduler() // fuzz on by default
        let card = reviewCard(stability: 40)
        var a = SeededGenerator(seed: 2024)
        var b = SeededGenerator(seed: 2024)
        let dueA = s.review(card, rating: .good, at: t0, using: &a).card.due
        let dueB = s.review(card, rating: .good, at: t0, using: &b).card.due
        #expect(dueA == dueB)
        var dues = Set<Double>()
        for seed in 0..<50 as Range<UInt64> {
            var g = SeededGenerator(seed: seed)
            dues.insert(s.review(card, rating: .good, at: t0, using: &g).card.due)
        }
        #expect(dues.count > 1)
    }

    @Test func publishedFuzzRanges() throws {
        let s = try Scheduler()
        #expect(s.fuzzRange(forInterval: 1) == 1...1)
        #expect(s.fuzzRange(forInterval: 2) == 2...2)
        #expect(s.fuzzRange(forInterval: 3) == 2...4) // delta 1.075
        #expect(s.fuzzRange(forInterval: 7) == 5...9) // delta 1.675
        #expect(s.fuzzRange(forInterval: 10) == 8...12) // delta 1.975
        #expect(s.fuzzRange(forInterval: 20) == 17...23) // delta 2.975
        #expect(s.fuzzRange(forInterval: 100) == 93...107) // delta 6.975
        #expect(s.fuzzRange(forInterval: 36_500) == 34_673...36_500) // upper bound capped
        let capped = try Scheduler(parameters: Parameters(maximumInterval: 10))
        #expect(capped.fuzzRange(forInterval: 10) == 8...10)
    }

    /// Independent transcription of the published rule, for the property test below.
    func publishedRange(_ days: Int, max maximum: Int) -> ClosedRange<Int> {
        let i = Double(days)
        let delta = 1 + 0.15 * max(min(i, 7) - 2.5, 0) + 0.10 * max(min(i, 20) - 7, 0) + 0.05 * max(i - 20, 0)
        let hi = min(Int((i + delta).rounded()), maximum)
        return min(max(2, Int((i - delta).rounded())), hi)...hi
    }

    @Test func fuzzOnlyFromTwoAndAHalfDaysAndWithinTheRange() throws {
        let s = try Scheduler()
        for days in [1, 2] {
            for seed in 0..<200 as Range<UInt64> {
                var g = SeededGenerator(seed: seed)
                #expect(s.fuzzed(days, rng: &g) == days)
            }
        }
        for days in [3, 4, 7, 12, 20, 21, 55, 365, 4_000, 36_500] {
            let range = publishedRange(days, max: 36_500)
            #expect(s.fuzzRange(forInterval: days) == range)
            var seen = Set<Int>()
            for seed in 0..<2_000 as Range<UInt64> {
                var g = SeededGenerator(seed: seed)
                let fuzzed = s.fuzzed(days, rng: &g)
                #expect(range.contains(fuzzed), "\(fuzzed) outside \(range) for \(days)")
                seen.insert(fuzzed)
            }
            // Both ends are reachable, so the draw is not biased inward.
            #expect(seen.contains(range.lowerBound) && seen.contains(range.upperBound), "\(days): \(seen.sorted())")
        }
    }

    @Test func learningStepsAreNeverFuzzed() throws {
        let s = try Scheduler()
        let dues = Set(
            (0..<100 as Range<UInt64>).map { seed -> Double in
                var g = SeededGenerator(seed: seed)
                return s.review(Card(due: t0), rating: .good, at: t0, using: &g).card.due
            })
        #expect(dues == [t0 + 600])
    }

    @Test func previewMatchesReview() throws {
        let s = try Scheduler()
        let card = reviewCard(stability: 30)
        let plain = s.preview(card, at: t0)
        let unfuzzed = try Scheduler(parameters: Parameters(fuzz: false))
        var rng = SeededGenerator(seed: 1)
        for rating in Rating.allCases {
            #expect(plain[rating] == unfuzzed.review(card, rating: rating, at: t0, using: &rng).card.due)
        }
        let seeded = s.preview(card, at: t0, using: SeededGenerator(seed: 77))
        for rating in Rating.allCases {
            var g = SeededGenerator(seed: 77)
            #expect(seeded[rating] == s.review(card, rating: rating, at: t0, using: &g).card.due)
        }
        #expect(plain[.again]! < plain[.hard]!)
        #expect(plain[.hard]! <= plain[.good]!)
        #expect(plain[.good]! <= plain[.easy]!)
    }
}

@Suite struct RetrievabilityTests {
    @Test(arguments: [0.5, 1, 2.3065, 12.34, 365, 10_000])
    func ninetyPercentAfterStabilityDays(stability: Double) throws {
        let s = try Scheduler()
        let card = Card(
            phase: .review, step: nil, memory: MemoryState(stability: stability, difficulty: 5),
            due: t0 + stability * day, lastReview: t0, reps: 1, lapses: 0, scheduledDays: 0)
        #expect(abs(s.retrievability(of: card, at: t0 + stability * day) - 0.9) < 1e-12)
        #expect(s.retrievability(of: card, at: t0) == 1)
        #expect(s.retrievability(of: card, at: t0 + 2 * stability * day) < 0.9)
    }

    @Test func newCardHasNoRetrievability() throws {
        #expect(try Scheduler().retrievability(of: Card(due: t0), at: t0 + day) == 0)
    }
}

@Suite struct ParameterValidationTests {
    @Test func refusesBadParameters() {
        #expect(throws: ParameterError.wrongWeightCount(19)) {
            try Scheduler(parameters: Parameters(weights: Array(Parameters.defaultWeights.prefix(19))))
        }
        var nanWeights = Parameters.defaultWeights
        nanWeights[20] = .nan
        #expect(throws: ParameterError.self) { try Scheduler(parameters: Parameters(weights: nanWeights)) }
        var zeroDecay = Parameters.defaultWeights
        zeroDecay[20] = 0
        #expect(throws: ParameterError.self) { try Scheduler(parameters: Parameters(weights: zeroDecay)) }
        #expect(throws: ParameterError.desiredRetentionOutOfRange(0.5)) {
            try Scheduler(parameters: Parameters(desiredRetention: 0.5))
        }
        #expect(throws: ParameterError.desiredRetentionOutOfRange(1)) {
            try Scheduler(parameters: Parameters(desiredRetention: 1))
        }
        #expect(throws: ParameterError.invalidLearningStep(-60)) {
            try Scheduler(parameters: Parameters(learningSteps: [-60]))
        }
        #expect(throws: ParameterError.invalidRelearningStep(0)) {
            try Scheduler(parameters: Parameters(relearningSteps: [0]))
        }
        #expect(throws: ParameterError.invalidMaximumInterval(0)) {
            try Scheduler(parameters: Parameters(maximumInterval: 0))
        }
    }

    @Test func acceptsTheRangeEnds() throws {
        _ = try Scheduler(parameters: Parameters(desiredRetention: 0.7))
        _ = try Scheduler(parameters: Parameters(desiredRetention: 0.99))
        _ = try Scheduler(parameters: Parameters(learningSteps: [], relearningSteps: []))
    }

    @Test func desiredRetentionDrivesIntervals() throws {
        let low = try Scheduler(parameters: Parameters(desiredRetention: 0.8))
        let high = try Scheduler(parameters: Parameters(desiredRetention: 0.95))
        #expect(low.interval(forStability: 10) > 10)
        #expect(high.interval(forStability: 10) < 10)
    }
}

@Suite struct ValueTypeTests {
    @Test func splitMix64KnownAnswers() {
        var g = SeededGenerator(seed: 1_234_567)
        let values = (0..<5).map { _ in g.next() }
        #expect(
            values == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ])
    }

    @Test func cardAndParametersRoundTripThroughJSON() throws {
        let s = try Scheduler()
        var rng = SeededGenerator(seed: 1)
        let review = s.review(Card(due: t0), rating: .good, at: t0, using: &rng)
        let data = try JSONEncoder().encode(review)
        #expect(try JSONDecoder().decode(Review.self, from: data) == review)
        let json = String(decoding: try JSONEncoder().encode(review.card), as: UTF8.self)
        #expect(json.contains("\"phase\":\"learning\""))
        let parameters = Parameters(desiredRetention: 0.85, learningSteps: [30], maximumInterval: 365)
        let decoded = try JSONDecoder().decode(Parameters.self, from: JSONEncoder().encode(parameters))
        #expect(decoded == parameters)
    }
}

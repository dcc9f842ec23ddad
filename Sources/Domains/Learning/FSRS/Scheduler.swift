import SeededRandom

/// FSRS-6 scheduler: learning steps, graduation, lapses and relearning as in py-fsrs's
/// `Scheduler`, with the memory model of fsrs-rs (which Anki runs).
///
/// A value type with no mutable state: share one per parameter set across tasks freely.
///
/// Days, two rules (``DayCalendar``):
/// - without a calendar, as py-fsrs: elapsed time is whole 24-hour periods since the previous
///   review (`timedelta.days`), and a review card is due its interval × 24 h after the review;
/// - with a calendar, as Anki: elapsed days are the calendar days between the two reviews' days,
///   and a review card falls due at the start of the day `interval` days after the review's
///   day, so cards reviewed at 9 am and at 11 pm with the same interval are due together from
///   that morning. Elapsed days feed the memory model, so it sees what Anki's would.
/// Histories expressed in whole days give identical memory states either way (see the Anki
/// oracle test).
public struct Scheduler: Sendable {
    public static let secondsPerDay: Double = 86_400

    public let parameters: Parameters
    /// nil: py-fsrs's 24-hour periods.
    public let calendar: (any DayCalendar)?
    let model: Model

    /// Validates `parameters` (21 weights within bounds, desired retention 0.7…0.99, positive
    /// steps, maximum interval ≥ 1).
    public init(parameters: Parameters = Parameters(), calendar: (any DayCalendar)? = nil) throws(ParameterError) {
        try parameters.validate()
        self.parameters = parameters
        self.calendar = calendar
        self.model = Model(weights: parameters.weights)
    }

    // MARK: Reviewing

    /// Applies one review at `now` (epoch seconds). Fuzz, if enabled, draws from `rng`: seed a
    /// ``SeededGenerator`` from stable data (card id and `reps`) to make the result
    /// reproducible, e.g. across a retried request.
    public func review(
        _ card: Card, rating: Rating, at now: Double, using rng: inout some RandomNumberGenerator
    ) -> Review {
        apply(card, rating: rating, at: now, fuzz: parameters.fuzz, rng: &rng)
    }

    /// Due time (epoch seconds) for each possible answer, without fuzz: the real due of a
    /// review card may differ by the fuzz range (see ``fuzzRange(forInterval:)``).
    public func preview(_ card: Card, at now: Double) -> [Rating: Double] {
        var unused = SeededGenerator(seed: 0)
        return Dictionary(
            uniqueKeysWithValues: Rating.allCases.map { rating in
                (rating, apply(card, rating: rating, at: now, fuzz: false, rng: &unused).card.due)
            })
    }

    /// Due time for each possible answer, fuzzed exactly as ``review(_:rating:at:using:)`` would
    /// fuzz it when given a generator in the same state as `rng` (each answer starts from a copy,
    /// so this holds for value-type generators such as ``SeededGenerator``).
    public func preview<G: RandomNumberGenerator>(_ card: Card, at now: Double, using rng: G) -> [Rating: Double] {
        Dictionary(
            uniqueKeysWithValues: Rating.allCases.map { rating in
                var copy = rng
                return (rating, apply(card, rating: rating, at: now, fuzz: parameters.fuzz, rng: &copy).card.due)
            })
    }

    // MARK: Memory model

    /// Probability of recall at `now`, on the continuous forgetting curve: elapsed time in
    /// fractional days, so it falls smoothly for display and is exactly 0.9 at t = S. (Review
    /// updates use whole elapsed days, like py-fsrs and Anki; the log's `retrievability` is that
    /// value.) 0 for a card that has never been reviewed, as in py-fsrs.
    public func retrievability(of card: Card, at now: Double) -> Double {
        guard let memory = card.memory, let last = card.lastReview else { return 0 }
        return model.retrievability(elapsedDays: (now - last) / Self.secondsPerDay, stability: memory.stability)
    }

    /// R(t, S) = (1 + F·t/S)^(−w20).
    public func retrievability(elapsedDays: Double, stability: Double) -> Double {
        model.retrievability(elapsedDays: elapsedDays, stability: stability)
    }

    /// Interval in whole days after which recall falls to `retention` (default: the desired
    /// retention), rounded half away from zero like fsrs-rs and clamped to
    /// [1, maximumInterval]. `retention` is not range-checked beyond that so the published
    /// vectors (0.1…1.0) can be reproduced.
    public func interval(forStability stability: Double, retention: Double? = nil) -> Int {
        let raw = rawInterval(forStability: stability, retention: retention ?? parameters.desiredRetention)
        let rounded = raw.rounded(.toNearestOrAwayFromZero)
        // Compare in Double first: Int(_:) traps on NaN, infinities and out-of-range values.
        guard rounded >= 1 else { return 1 }
        guard rounded < Double(parameters.maximumInterval) else { return parameters.maximumInterval }
        return Int(rounded)
    }

    /// Unrounded, unclamped interval in days; meaningful for `retention` in (0, 1].
    public func rawInterval(forStability stability: Double, retention: Double) -> Double {
        model.interval(stability: stability, retention: retention)
    }

    /// Memory after one review. `memory == nil` means this is the first review (the elapsed
    /// time is then ignored); `elapsedDays < 1` selects the same-day formula.
    public func nextMemoryState(after memory: MemoryState?, rating: Rating, elapsedDays: Double) -> MemoryState {
        model.next(memory, rating: rating, elapsedDays: elapsedDays)
    }

    /// Memory after a whole history, oldest first. The first entry's `elapsedDays` is ignored;
    /// later ones are the days since the previous review (whole days for parity with Anki and
    /// fsrs-rs, which only ever see whole days). nil for an empty history.
    public func memoryState(afterHistory history: [(rating: Rating, elapsedDays: Double)]) -> MemoryState? {
        var memory: MemoryState?
        for entry in history {
            memory = model.next(memory, rating: entry.rating, elapsedDays: entry.elapsedDays)
        }
        return memory
    }

    // MARK: Fuzz

    /// Range a review interval of `days` may be fuzzed into (inclusive). Intervals below
    /// 2.5 days are never fuzzed and get a one-element range.
    public func fuzzRange(forInterval days: Int) -> ClosedRange<Int> {
        let interval = Double(days)
        guard interval >= 2.5 else { return days...days }
        // Wider spread for longer intervals, but a shrinking share of them.
        var delta = 1.0
        delta += 0.15 * max(min(interval, 7) - 2.5, 0)
        delta += 0.10 * max(min(interval, 20) - 7, 0)
        delta += 0.05 * max(interval - 20, 0)
        let upper = min(Int((interval + delta).rounded(.toNearestOrAwayFromZero)), parameters.maximumInterval)
        let lower = min(max(2, Int((interval - delta).rounded(.toNearestOrAwayFromZero))), upper)
        return lower...upper
    }

    func fuzzed(_ days: Int, rng: inout some RandomNumberGenerator) -> Int {
        let range = fuzzRange(forInterval: days)
        guard range.count > 1 else { return range.lowerBound }
        // Same draw as Anki's `with_review_fuzz`: floor(lower + u·(count)), u ∈ [0, 1).
        // py-fsrs rounds instead, which can land one day above its own upper bound.
        let offset = Int(rng.unitInterval() * Double(range.count))
        return min(range.lowerBound + offset, range.upperBound)
    }

    // MARK: Internals

    /// Days from the review at `from` to the one at `to` under this scheduler's rule, never
    /// negative (clock skew must not turn a review into a time machine).
    func elapsedDays(from: Double, to: Double) -> Int {
        guard let calendar else { return Self.wholeDays(from: from, to: to) }
        return max(0, calendar.number(of: to) - calendar.number(of: from))
    }

    /// The start of the day `days` calendar days after the day of `now` (with a calendar).
    func due(after now: Double, days: Int) -> Double {
        guard let calendar else { return now + Double(days) * Self.secondsPerDay }
        return calendar.start(ofDay: calendar.number(of: now) + days)
    }

    /// Whole 24 h periods from `from` to `to`, never negative (clock skew must not turn a
    /// review into a time machine).
    static func wholeDays(from: Double, to: Double) -> Int {
        // Epoch seconds near 1.7e9 carry ~2.4e-7 s of rounding, so a review exactly n days
        // after the last one can subtract to a hair under n days; 1 ms of slack keeps it n.
        let days = ((to - from + 0.001) / secondsPerDay).rounded(.down)
        guard days.isFinite, days > 0 else { return 0 }
        return days >= 1e9 ? 1_000_000_000 : Int(days)
    }

    private enum Outcome {
        case step(Phase, index: Int, delay: Double)
        case graduate
    }

    private func apply(
        _ card: Card, rating: Rating, at now: Double, fuzz: Bool, rng: inout some RandomNumberGenerator
    ) -> Review {
        let elapsedDays = card.lastReview.map { self.elapsedDays(from: $0, to: now) } ?? 0
        let retrievabilityBefore = card.memory.map {
            model.retrievability(elapsedDays: Double(elapsedDays), stability: $0.stability)
        }
        let memory = model.next(card.memory, rating: rating, elapsedDays: Double(elapsedDays))

        var next = card
        next.memory = memory
        next.reps += 1
        next.lastReview = now

        let outcome: Outcome
        switch card.phase {
        case .new, .learning:
            outcome = stepOutcome(.learning, steps: parameters.learningSteps, step: card.step ?? 0, rating: rating)
        case .relearning:
            outcome = stepOutcome(.relearning, steps: parameters.relearningSteps, step: card.step ?? 0, rating: rating)
        case .review:
            if rating == .again {
                next.lapses += 1
                if let first = parameters.relearningSteps.first {
                    outcome = .step(.relearning, index: 0, delay: first)
                } else {
                    outcome = .graduate
                }
            } else {
                outcome = .graduate
            }
        }

        let scheduledSeconds: Double
        switch outcome {
        case .step(let phase, let index, let delay):
            next.phase = phase
            next.step = index
            next.scheduledDays = 0
            scheduledSeconds = delay
            next.due = now + delay
        case .graduate:
            var days = interval(forStability: memory.stability)
            if fuzz { days = fuzzed(days, rng: &rng) }
            next.phase = .review
            next.step = nil
            next.scheduledDays = days
            // Without a calendar exactly py-fsrs's `now + interval`; with one, the start of a day.
            next.due = due(after: now, days: days)
            scheduledSeconds = calendar == nil ? Double(days) * Self.secondsPerDay : next.due - now
        }

        let log = ReviewLog(
            rating: rating, reviewedAt: now, elapsedDays: elapsedDays,
            retrievability: retrievabilityBefore, phaseBefore: card.phase, phaseAfter: next.phase,
            memoryBefore: card.memory, memoryAfter: memory, scheduledSeconds: scheduledSeconds,
            scheduledDays: next.scheduledDays, due: next.due)
        return Review(card: next, log: log)
    }

    /// py-fsrs's step rules, shared by learning and relearning.
    private func stepOutcome(_ phase: Phase, steps: [Double], step rawStep: Int, rating: Rating) -> Outcome {
        let step = max(rawStep, 0)
        // Steps may have been shortened since the card was scheduled: a card past the last
        // step graduates on any pass instead of indexing out of range.
        if steps.isEmpty || (step >= steps.count && rating != .again) { return .graduate }
        switch rating {
        case .again:
            return .step(phase, index: 0, delay: steps[0])
        case .hard:
            // Hard repeats the current step; on the first step it waits between step 1 and 2
            // (or 1.5 × a single step) so Hard is distinguishable from Again.
            let delay: Double
            if step == 0 && steps.count == 1 {
                delay = steps[0] * 1.5
            } else if step == 0 {
                delay = (steps[0] + steps[1]) / 2
            } else {
                delay = steps[step]
            }
            return .step(phase, index: step, delay: delay)
        case .good:
            return step + 1 >= steps.count ? .graduate : .step(phase, index: step + 1, delay: steps[step + 1])
        case .easy:
            return .graduate
        }
    }
}

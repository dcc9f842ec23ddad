/// Scheduling state of one card. Times are Unix epoch seconds (UTC): the product indexes due
/// times in PostgreSQL, where only plain numbers make IMMUTABLE index expressions.
public struct Card: Sendable, Codable, Equatable, Hashable {
    public var phase: Phase
    /// Index into the learning or relearning steps while in those phases, otherwise nil.
    public var step: Int?
    /// nil until the first review.
    public var memory: MemoryState?
    /// When the card should next be shown (epoch seconds).
    public var due: Double
    /// Time of the latest review (epoch seconds), nil for a new card.
    public var lastReview: Double?
    /// Number of reviews so far.
    public var reps: Int
    /// Number of times the card was forgotten (Again) while in review.
    public var lapses: Int
    /// Whole days from the latest review to `due`; 0 while on a (re)learning step.
    public var scheduledDays: Int

    /// A new card, due at `due` (usually its creation time).
    public init(due: Double) {
        self.init(
            phase: .new, step: nil, memory: nil, due: due, lastReview: nil,
            reps: 0, lapses: 0, scheduledDays: 0)
    }

    public init(
        phase: Phase, step: Int?, memory: MemoryState?, due: Double, lastReview: Double?,
        reps: Int, lapses: Int, scheduledDays: Int
    ) {
        self.phase = phase
        self.step = step
        self.memory = memory
        self.due = due
        self.lastReview = lastReview
        self.reps = reps
        self.lapses = lapses
        self.scheduledDays = scheduledDays
    }
}

/// What one review did: enough to store as a review-log row and to replay the memory model
/// later (`rating` + `elapsedDays` of successive logs feed ``Scheduler/memoryState(afterHistory:)``).
public struct ReviewLog: Sendable, Codable, Equatable, Hashable {
    public var rating: Rating
    /// Epoch seconds.
    public var reviewedAt: Double
    /// Whole days since the previous review, as the model used them; 0 for the first review.
    public var elapsedDays: Int
    /// Predicted recall probability just before this review; nil for the first review.
    public var retrievability: Double?
    public var phaseBefore: Phase
    public var phaseAfter: Phase
    public var memoryBefore: MemoryState?
    public var memoryAfter: MemoryState
    /// Seconds from this review to the next due time (a step delay or whole days).
    public var scheduledSeconds: Double
    /// Whole days to the next due time; 0 when the next step is shorter than a day.
    public var scheduledDays: Int
    /// Epoch seconds.
    public var due: Double

    public init(
        rating: Rating, reviewedAt: Double, elapsedDays: Int, retrievability: Double?,
        phaseBefore: Phase, phaseAfter: Phase, memoryBefore: MemoryState?,
        memoryAfter: MemoryState, scheduledSeconds: Double, scheduledDays: Int, due: Double
    ) {
        self.rating = rating
        self.reviewedAt = reviewedAt
        self.elapsedDays = elapsedDays
        self.retrievability = retrievability
        self.phaseBefore = phaseBefore
        self.phaseAfter = phaseAfter
        self.memoryBefore = memoryBefore
        self.memoryAfter = memoryAfter
        self.scheduledSeconds = scheduledSeconds
        self.scheduledDays = scheduledDays
        self.due = due
    }
}

/// The result of ``Scheduler/review(_:rating:at:using:)``: the updated card and its log entry.
public struct Review: Sendable, Codable, Equatable, Hashable {
    public var card: Card
    public var log: ReviewLog

    public init(card: Card, log: ReviewLog) {
        self.card = card
        self.log = log
    }
}

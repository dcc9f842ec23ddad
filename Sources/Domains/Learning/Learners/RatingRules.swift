import FSRS

/// What a rating does, decided once for every engine. A store runs a rating in one write
/// transaction: it reads the rows these rules ask for (the card locked against other writers),
/// lets them decide, and writes exactly what they return. Replaying a client id, refusing a
/// stale version, the next version number, the log row and what undo restores live here, so
/// the SQLite and PostgreSQL stores cannot disagree about any of them.
public struct RatingRequest: Sendable {
    public let item: Int64
    public let learner: Int64
    /// The card's version the client saw; a different one is refused as stale.
    public let expectedVersion: Int?
    /// Set by clients that queue ratings offline: the same id is applied once.
    public let clientID: String?
    /// The scheduler's decision for the card as read; may run on the store's writer thread.
    public let schedule: @Sendable (CardRecord) throws -> Review

    public init(
        item: Int64, learner: Int64, expectedVersion: Int?, clientID: String?,
        schedule: @escaping @Sendable (CardRecord) throws -> Review
    ) {
        self.item = item
        self.learner = learner
        self.expectedVersion = expectedVersion
        self.clientID = clientID
        self.schedule = schedule
    }

    /// A client id seen before: the earlier outcome, nothing scheduled again. `current` is the
    /// earlier item's card as it is now; an item removed since shows the card the rating left.
    public func replay(of earlier: ReviewEntry, current: CardRecord?) -> RatingOutcome {
        .repeated(current ?? CardRecord(itemID: earlier.itemID, card: earlier.after, version: 0), earlier)
    }

    /// Decides the rating of the card as read inside the transaction: an unknown item and a
    /// changed version are refused here, before anything is written.
    public func decide(on record: CardRecord?) throws -> RatingChange {
        guard let record else { throw LearnerError.unknownItem(item) }
        if let expectedVersion, expectedVersion != record.version { throw LearnerError.stale(current: record) }
        let review = try schedule(record)
        return try RatingChange(request: self, before: record, review: review)
    }
}

/// A decided rating: the card to write (one version on) and the log row to append.
public struct RatingChange: Sendable {
    /// The card as it was read; a store that writes conditionally checks this version.
    public let before: CardRecord
    public let updated: CardRecord
    public let log: ReviewLogRow

    init(request: RatingRequest, before: CardRecord, review: Review) throws {
        self.before = before
        updated = CardRecord(itemID: request.item, card: review.card, version: before.version + 1)
        log = try ReviewLogRow(
            learner: request.learner, item: request.item, reviewedAt: review.log.reviewedAt,
            rating: review.log.rating, elapsedDays: review.log.elapsedDays,
            before: before.card, after: review.card, clientID: request.clientID)
    }

    /// The outcome once the log row was stored with `id`.
    public func outcome(logID id: Int64) -> RatingOutcome {
        .applied(updated, log.entry(id: id))
    }
}

/// A review log row as every engine stores it, the cards already in their stored JSON.
public struct ReviewLogRow: Sendable {
    public let learner: Int64
    public let item: Int64
    public let reviewedAt: Double
    public let rating: Rating
    public let elapsedDays: Int
    public let before: Card
    public let after: Card
    public let beforeJSON: String
    public let afterJSON: String
    public let clientID: String?

    init(learner: Int64, item: Int64, reviewedAt: Double, rating: Rating, elapsedDays: Int, before: Card, after: Card, clientID: String?) throws {
        self.learner = learner
        self.item = item
        self.reviewedAt = reviewedAt
        self.rating = rating
        self.elapsedDays = elapsedDays
        self.before = before
        self.after = after
        beforeJSON = try LearnerCoding.cardJSON(before)
        afterJSON = try LearnerCoding.cardJSON(after)
        self.clientID = clientID
    }

    func entry(id: Int64) -> ReviewEntry {
        ReviewEntry(
            id: id, itemID: item, reviewedAt: reviewedAt, rating: rating, elapsedDays: elapsedDays,
            before: before, after: after, clientID: clientID)
    }
}

/// Undo takes back the learner's latest log row: the card (if the item is still saved) returns
/// to the state before that rating, one version on, so a client holding the undone version is
/// told its card changed. The row itself is deleted.
public enum UndoRule {
    public static func restored(after last: ReviewEntry, current: CardRecord?) -> CardRecord? {
        current.map { CardRecord(itemID: last.itemID, card: last.before, version: $0.version + 1) }
    }
}

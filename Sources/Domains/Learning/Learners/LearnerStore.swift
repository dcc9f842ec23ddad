import FSRS

/// A learner's data wherever it is kept: the embedded SQLite file by default, a server
/// database when several instances share it. Every call names its learner, and an
/// implementation returns nothing of another learner's: that is the authorisation boundary.
public protocol LearnerStore: Sendable {
    // MARK: Learners and their credentials
    func createLearner(name: String, at time: Double) async throws -> Learner
    func learner(named name: String) async throws -> Learner?
    func learner(id: Int64) async throws -> Learner?
    func learners() async throws -> [Learner]
    func updateSettings(_ settings: LearnerSettings, of learner: Int64) async throws
    /// Whether the latest write failed because the disk is full (false again once one succeeds).
    var outOfSpace: Bool { get }
    /// Stores a token's hash (never the token) for a learner.
    func addToken(hash: [UInt8], label: String, for learner: Int64, at time: Double) async throws
    /// The learner whose live token has this hash.
    func learner(tokenHash: [UInt8]) async throws -> Learner?
    /// Carries out `change.steps` in order, in one transaction (`CredentialChange` decides
    /// what a revocation, a new password or a deletion does).
    func change(_ change: CredentialChange, of learner: Int64, at time: Double) async throws -> CredentialChange.Outcome
    func passwordHash(of learner: Int64) async throws -> String?
    /// Stores a browser session's hash (never the session token) until `expires`; sessions of
    /// the learner that have expired are forgotten at the same time.
    func addSession(hash: [UInt8], for learner: Int64, at time: Double, expires: Double) async throws
    /// The learner whose session with this hash has not expired at `time`.
    func learner(sessionHash: [UInt8], at time: Double) async throws -> Learner?
    /// Ends a session; false when there was none.
    func removeSession(hash: [UInt8]) async throws -> Bool

    // MARK: The library
    /// Saves the items, each with a new card due at `time`, in one transaction (all or none), in
    /// the order given; an item saved before is returned as it is.
    func save(_ items: [NewItem], for learner: Int64, at time: Double) async throws -> [(item: SavedItem, inserted: Bool)]
    func items(of learner: Int64) async throws -> [SavedItem]
    func item(_ id: Int64, of learner: Int64) async throws -> SavedItem?
    func item(_ key: ItemKey, of learner: Int64) async throws -> SavedItem?
    /// Removes an item and its card (its past ratings stay in the log); false when there was none.
    func remove(_ id: Int64, of learner: Int64) async throws -> Bool
    /// Points an item at another entry (items saved before entries had ids).
    func rekey(_ id: Int64, to key: ItemKey, of learner: Int64) async throws

    // MARK: Reviews
    func card(of item: Int64, learner: Int64) async throws -> CardRecord?
    /// Every item with its card, for queues, statistics and exports.
    func cards(of learner: Int64) async throws -> [(item: SavedItem, card: CardRecord)]
    /// Rates a card in one transaction: reads the rows `RatingRules` ask for (a client id's
    /// earlier rating, the card, locked against other writers), lets them decide and writes
    /// what they return, or nothing. `request.schedule` may run on another thread, in a
    /// transaction shared with other writes.
    func rate(_ request: RatingRequest) async throws -> RatingOutcome
    /// Takes back the learner's latest rating as `UndoRule` says.
    func undoLastRating(of learner: Int64) async throws -> ReviewEntry
    /// The learner's ratings since `time`, oldest first.
    func reviews(of learner: Int64, since time: Double) async throws -> [ReviewEntry]
    /// The running totals of the learner's whole log (`ReviewTotals`), kept with each rating and undo.
    func totals(of learner: Int64) async throws -> ReviewTotals
    /// Several learners' cards and totals, for a class page: on a server database a few
    /// statements for the whole class rather than a few for each child.
    func records(of learners: [Int64]) async throws -> [Int64: LearnerRecords]
}

/// What a progress page reads of one learner: their cards and the running totals of their log.
public struct LearnerRecords: Sendable {
    public var cards: [(item: SavedItem, card: CardRecord)]
    public var totals: ReviewTotals

    public init(cards: [(item: SavedItem, card: CardRecord)], totals: ReviewTotals) {
        self.cards = cards
        self.totals = totals
    }
}

extension LearnerStore {
    /// Saves one item with a new card due at `time`; an item saved before is returned as it is.
    public func save(_ key: ItemKey, word: String, details: ItemDetails?, for learner: Int64, at time: Double) async throws -> (
        item: SavedItem, inserted: Bool
    ) {
        let saved = try await save([NewItem(key, word: word, details: details)], for: learner, at: time)
        return saved[0]
    }

    /// A server database's disk is its server's to report: such a store never says it is full.
    public var outOfSpace: Bool { false }
}

import FSRS
import Foundation
import JSONReading
import SQLiteDB
import Store
import Synchronization
import Usage
import Vocabulary

/// Learner data in the embedded user.sqlite. One connection writes, on a thread of its own, and
/// commits the writes that queue up during a commit together, each in a savepoint of its own;
/// reads go to separate read-only connections, so they never wait for a commit. Ratings and their
/// log rows commit together, and a write returns only once its commit is on disk (WAL with
/// synchronous=FULL: a review acknowledged survives a power cut). The log is copied into the
/// database by a third connection beside the writer, not inside its commits (`LogCheckpointer`).
public final class SQLiteLearnerStore: LearnerStore {
    private let writer: GroupCommitWriter
    private let readers: ReaderPool
    public let path: String

    public init(path: String) throws {
        self.path = path
        let database = try Database(path: path)
        try retryingWhileBusy { try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;") }
        try UserDatabase.migrator.migrate(database)
        writer = GroupCommitWriter(
            database, label: "vocab.learners.writer",
            checkpointer: LogCheckpointer(path: path, label: "vocab.learners.checkpointer"), use: PoolUse(name: "learners.writes"))
        readers = ReaderPool(path: path, label: "vocab.learners.readers", use: PoolUse(name: "learners.reads"))
    }

    /// The writer's queue and the readers, for metrics.
    public var pools: [PoolUse] { [writer.use, readers.use] }
    /// How long each commit took to be on disk.
    public var commitTimes: DurationCounts { writer.commitTimes }

    /// Whether the latest write failed because the disk is full (until one succeeds again).
    public var outOfSpace: Bool { writer.outOfSpace }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T { try await writer.write(body) }
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T { try await readers.read(body) }

    // MARK: Learners

    public func createLearner(name: String, at time: Double) async throws -> Learner {
        let key = try LearnerCoding.nameKey(name)
        return try await write { db in
            guard try db.scalar("SELECT 1 FROM learners WHERE name_key = ?", [.text(key)]) == nil else { throw LearnerError.nameTaken(name) }
            let settings = LearnerSettings()
            try db.run(
                "INSERT INTO learners(name, name_key, created_at, settings) VALUES (?, ?, ?, ?)",
                [.text(name), .text(key), .real(time), .text(try LearnerCoding.json(settings))])
            return Learner(id: db.lastInsertRowID, name: name, createdAt: time, settings: settings)
        }
    }

    public func learner(named name: String) async throws -> Learner? {
        guard let key = try? LearnerCoding.nameKey(name) else { return nil }
        return try await read { db in
            try db.query("SELECT id, name, created_at, settings FROM learners WHERE name_key = ?", [.text(key)], map: Self.learner).first
        }
    }

    public func learner(id: Int64) async throws -> Learner? {
        try await read { db in
            try db.query("SELECT id, name, created_at, settings FROM learners WHERE id = ?", [.integer(id)], map: Self.learner).first
        }
    }

    public func learners() async throws -> [Learner] {
        try await read { db in try db.query("SELECT id, name, created_at, settings FROM learners ORDER BY name_key", map: Self.learner) }
    }

    public func updateSettings(_ settings: LearnerSettings, of learner: Int64) async throws {
        let text = try LearnerCoding.json(settings)
        try await write { db in try db.run("UPDATE learners SET settings = ? WHERE id = ?", [.text(text), .integer(learner)]) }
    }

    public func addToken(hash: [UInt8], label: String, for learner: Int64, at time: Double) async throws {
        try await write { db in
            try db.run(
                "INSERT INTO tokens(hash, learner_id, label, created_at) VALUES (?, ?, ?, ?)",
                [.blob(hash), .integer(learner), .text(label), .real(time)])
        }
    }

    public func learner(tokenHash: [UInt8]) async throws -> Learner? {
        try await read { db in
            try db.query(
                """
                SELECT l.id, l.name, l.created_at, l.settings FROM tokens t JOIN learners l ON l.id = t.learner_id
                WHERE t.hash = ? AND t.revoked_at IS NULL
                """, [.blob(tokenHash)], map: Self.learner
            ).first
        }
    }

    public func change(_ change: CredentialChange, of learner: Int64, at time: Double) async throws -> CredentialChange.Outcome {
        try await write { db in
            var outcome = CredentialChange.Outcome()
            for step in change.steps {
                switch step {
                case .revokeLiveTokens:
                    try db.run("UPDATE tokens SET revoked_at = ? WHERE learner_id = ? AND revoked_at IS NULL", [.real(time), .integer(learner)])
                    outcome.tokensRevoked = db.changes
                case .endSessions:
                    try db.run("DELETE FROM sessions WHERE learner_id = ?", [.integer(learner)])
                case .setPasswordHash(let hash):
                    try db.run("UPDATE learners SET password_hash = ? WHERE id = ?", [hash.map { .text($0) } ?? .null, .integer(learner)])
                case .deleteOwnedRows(let tables):
                    for table in tables { try db.run("DELETE FROM \(table) WHERE learner_id = ?", [.integer(learner)]) }
                case .deleteLearnerRow:
                    try db.run("DELETE FROM learners WHERE id = ?", [.integer(learner)])
                    outcome.learnerDeleted = db.changes > 0
                }
            }
            return outcome
        }
    }

    public func addSession(hash: [UInt8], for learner: Int64, at time: Double, expires: Double) async throws {
        try await write { db in
            try db.run("DELETE FROM sessions WHERE learner_id = ? AND expires_at <= ?", [.integer(learner), .real(time)])
            try db.run(
                "INSERT INTO sessions(hash, learner_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [.blob(hash), .integer(learner), .real(time), .real(expires)])
        }
    }

    public func learner(sessionHash: [UInt8], at time: Double) async throws -> Learner? {
        try await read { db in
            try db.query(
                """
                SELECT l.id, l.name, l.created_at, l.settings FROM sessions s JOIN learners l ON l.id = s.learner_id
                WHERE s.hash = ? AND s.expires_at > ?
                """, [.blob(sessionHash), .real(time)], map: Self.learner
            ).first
        }
    }

    public func removeSession(hash: [UInt8]) async throws -> Bool {
        try await write { db in
            try db.run("DELETE FROM sessions WHERE hash = ?", [.blob(hash)])
            return db.changes > 0
        }
    }

    public func passwordHash(of learner: Int64) async throws -> String? {
        try await read { db in try db.scalar("SELECT password_hash FROM learners WHERE id = ?", [.integer(learner)])?.textValue }
    }

    // MARK: Library

    public func save(_ items: [NewItem], for learner: Int64, at time: Double) async throws -> [(item: SavedItem, inserted: Bool)] {
        let rows = try items.map { ($0, try $0.details.map { try LearnerCoding.json($0) }) }
        return try await write { db -> [(item: SavedItem, inserted: Bool)] in
            try rows.map { new, detailsText in
                if let existing = try Self.item(new.key, of: learner, in: db) { return (existing, false) }
                try db.run(
                    "INSERT INTO items(learner_id, source, entry, reading, word, saved_at, details) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(learner), .text(new.key.source.rawValue), .text(new.key.entry), .text(new.key.reading), .text(new.word),
                        .real(time), detailsText.map { .text($0) } ?? .null,
                    ])
                let id = db.lastInsertRowID
                try Self.write(CardRecord(itemID: id, card: Card(due: time), version: 0), learner: learner, insert: true, in: db)
                return (SavedItem(id: id, key: new.key, word: new.word, savedAt: time, details: new.details), true)
            }
        }
    }

    public func items(of learner: Int64) async throws -> [SavedItem] {
        try await read { db in
            try db.query("SELECT \(Self.itemColumns) FROM items WHERE learner_id = ? ORDER BY saved_at, id", [.integer(learner)], map: Self.item)
        }
    }

    public func item(_ id: Int64, of learner: Int64) async throws -> SavedItem? {
        try await read { db in
            try db.query("SELECT \(Self.itemColumns) FROM items WHERE id = ? AND learner_id = ?", [.integer(id), .integer(learner)], map: Self.item).first
        }
    }

    public func item(_ key: ItemKey, of learner: Int64) async throws -> SavedItem? {
        try await read { db in try Self.item(key, of: learner, in: db) }
    }

    static func item(_ key: ItemKey, of learner: Int64, in db: Database) throws -> SavedItem? {
        try db.query(
            "SELECT \(Self.itemColumns) FROM items WHERE learner_id = ? AND source = ? AND entry = ? AND reading = ?",
            [.integer(learner), .text(key.source.rawValue), .text(key.entry), .text(key.reading)], map: Self.item
        ).first
    }

    public func remove(_ id: Int64, of learner: Int64) async throws -> Bool {
        try await write { db in
            try db.run("DELETE FROM cards WHERE item_id = ? AND learner_id = ?", [.integer(id), .integer(learner)])
            try db.run("DELETE FROM items WHERE id = ? AND learner_id = ?", [.integer(id), .integer(learner)])
            return db.changes > 0
        }
    }

    public func rekey(_ id: Int64, to key: ItemKey, of learner: Int64) async throws {
        try await write { db in
            try db.run(
                "UPDATE OR IGNORE items SET source = ?, entry = ?, reading = ? WHERE id = ? AND learner_id = ?",
                [.text(key.source.rawValue), .text(key.entry), .text(key.reading), .integer(id), .integer(learner)])
        }
    }

    // MARK: Reviews

    public func card(of item: Int64, learner: Int64) async throws -> CardRecord? {
        try await read { db in try Self.card(of: item, learner: learner, in: db) }
    }

    static func card(of item: Int64, learner: Int64, in db: Database) throws -> CardRecord? {
        try db.query(
            "SELECT \(Self.cardColumns) FROM cards WHERE item_id = ? AND learner_id = ?", [.integer(item), .integer(learner)],
            map: Self.card
        ).first
    }

    public func cards(of learner: Int64) async throws -> [(item: SavedItem, card: CardRecord)] {
        let rows = try await read { db in
            try db.query(
                """
                SELECT \(Self.itemColumns.split(separator: ",").map { "i." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       \(Self.cardColumns.split(separator: ",").map { "c." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM items i JOIN cards c ON c.item_id = i.id WHERE i.learner_id = ? ORDER BY c.due, i.id
                """, [.integer(learner)]
            ) { row in ItemCard(item: Self.item(row), card: Self.card(row, from: 7)) }
        }
        return rows.map { ($0.item, $0.card) }
    }

    private struct ItemCard: Sendable {
        var item: SavedItem
        var card: CardRecord
    }

    public func rate(_ request: RatingRequest) async throws -> RatingOutcome {
        try await write { db in
            let learner = request.learner
            if let clientID = request.clientID,
                let earlier = try db.query(
                    "SELECT \(Self.reviewColumns) FROM reviews WHERE learner_id = ? AND client_id = ?", [.integer(learner), .text(clientID)],
                    map: Self.review
                ).first
            {
                return request.replay(of: earlier, current: try Self.card(of: earlier.itemID, learner: learner, in: db))
            }
            // The writer thread is the only writer of this file: what it reads stays current.
            let change = try request.decide(on: try Self.card(of: request.item, learner: learner, in: db))
            try Self.write(change.updated, learner: learner, insert: false, in: db)
            let row = change.log
            try db.run(
                """
                INSERT INTO reviews(learner_id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(learner), .integer(row.item), .real(row.reviewedAt), .integer(Int64(row.rating.rawValue)),
                    .integer(Int64(row.elapsedDays)), .text(row.beforeJSON), .text(row.afterJSON), row.clientID.map { .text($0) } ?? .null,
                ])
            let id = db.lastInsertRowID
            try Self.count(row.totalsChange, sign: 1, learner: learner, in: db)
            return change.outcome(logID: id)
        }
    }

    public func undoLastRating(of learner: Int64) async throws -> ReviewEntry {
        try await write { db in
            guard
                let last = try db.query(
                    "SELECT \(Self.reviewColumns) FROM reviews WHERE learner_id = ? ORDER BY id DESC LIMIT 1",
                    [.integer(learner)], map: Self.review
                ).first
            else { throw LearnerError.nothingToUndo }
            if let restored = UndoRule.restored(after: last, current: try Self.card(of: last.itemID, learner: learner, in: db)) {
                try Self.write(restored, learner: learner, insert: false, in: db)
            }
            try db.run("DELETE FROM reviews WHERE id = ?", [.integer(last.id)])
            try Self.count(last.totalsChange, sign: -1, learner: learner, in: db)
            return last
        }
    }

    public func reviews(of learner: Int64, since time: Double) async throws -> [ReviewEntry] {
        try await read { db in
            try db.query(
                "SELECT \(Self.reviewColumns) FROM reviews WHERE learner_id = ? AND reviewed_at >= ? ORDER BY reviewed_at, id",
                [.integer(learner), .real(time)], map: Self.review)
        }
    }

    public func totals(of learner: Int64) async throws -> ReviewTotals {
        try await read { db in
            let slots = try db.query(
                "SELECT slot, reviews, graded, kept FROM review_slots WHERE learner_id = ? ORDER BY slot", [.integer(learner)]
            ) { ReviewTotals.Slot(slot: $0.int(0), reviews: Int($0.int(1)), graded: Int($0.int(2)), kept: Int($0.int(3))) }
            let items = try db.query(
                "SELECT item_id, answers, again, spoken FROM review_items WHERE learner_id = ? ORDER BY item_id", [.integer(learner)]
            ) { ReviewTotals.Item(itemID: $0.int(0), answers: Int($0.int(1)), again: Int($0.int(2)), spoken: Int($0.int(3))) }
            // The index of the log by learner and time answers this from its last entry.
            let last =
                try db.query("SELECT max(reviewed_at) FROM reviews WHERE learner_id = ?", [.integer(learner)]) {
                    $0.isNull(0) ? nil : $0.double(0)
                }.first ?? nil
            return ReviewTotals(slots: slots, items: items, lastReviewAt: last)
        }
    }

    /// Each learner's rows read at once: the readers are separate connections, and a read here
    /// costs no round trip.
    public func records(of learners: [Int64]) async throws -> [Int64: LearnerRecords] {
        try await withThrowingTaskGroup(of: (Int64, LearnerRecords).self) { group in
            for learner in Set(learners) {
                group.addTask {
                    async let cards = self.cards(of: learner)
                    async let totals = self.totals(of: learner)
                    return (learner, LearnerRecords(cards: try await cards, totals: try await totals))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    // MARK: Rows

    /// Adds a log row's change to the totals (`sign` 1), or takes it away (-1, an undo); a
    /// quarter hour or an item left with no review has no row.
    static func count(_ change: ReviewTotals.Change, sign: Int, learner: Int64, in db: Database) throws {
        let n = Int64(sign)
        try db.run(
            """
            INSERT INTO review_slots(learner_id, slot, reviews, graded, kept) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (learner_id, slot) DO UPDATE SET reviews = reviews + excluded.reviews,
                graded = graded + excluded.graded, kept = kept + excluded.kept
            """, [.integer(learner), .integer(change.slot), .integer(n), .integer(n * Int64(change.graded)), .integer(n * Int64(change.kept))])
        try db.run(
            """
            INSERT INTO review_items(learner_id, item_id, answers, again, spoken) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (learner_id, item_id) DO UPDATE SET answers = answers + excluded.answers,
                again = again + excluded.again, spoken = spoken + excluded.spoken
            """, [.integer(learner), .integer(change.item), .integer(n), .integer(n * Int64(change.again)), .integer(n * Int64(change.spoken))])
        if sign < 0 {
            try db.run("DELETE FROM review_slots WHERE learner_id = ? AND slot = ? AND reviews <= 0", [.integer(learner), .integer(change.slot)])
            try db.run("DELETE FROM review_items WHERE learner_id = ? AND item_id = ? AND answers <= 0", [.integer(learner), .integer(change.item)])
        }
    }

    /// Writes the totals of a log counted whole (`ReviewTotals(log:)`), for a learner with none yet.
    static func insert(_ totals: ReviewTotals, learner: Int64, in db: Database) throws {
        for s in totals.slots {
            try db.run(
                "INSERT INTO review_slots(learner_id, slot, reviews, graded, kept) VALUES (?, ?, ?, ?, ?)",
                [.integer(learner), .integer(s.slot), .integer(Int64(s.reviews)), .integer(Int64(s.graded)), .integer(Int64(s.kept))])
        }
        for i in totals.items {
            try db.run(
                "INSERT INTO review_items(learner_id, item_id, answers, again, spoken) VALUES (?, ?, ?, ?, ?)",
                [.integer(learner), .integer(i.itemID), .integer(Int64(i.answers)), .integer(Int64(i.again)), .integer(Int64(i.spoken))])
        }
    }

    static func write(_ record: CardRecord, learner: Int64, insert: Bool, in db: Database) throws {
        let c = record.card
        let values: [SQLValue] = [
            .text(c.phase.rawValue), c.step.map { .integer(Int64($0)) } ?? .null,
            c.memory.map { .real($0.stability) } ?? .null, c.memory.map { .real($0.difficulty) } ?? .null,
            .real(c.due), c.lastReview.map { .real($0) } ?? .null, .integer(Int64(c.reps)), .integer(Int64(c.lapses)),
            .integer(Int64(c.scheduledDays)), .integer(Int64(record.version)),
        ]
        if insert {
            try db.run(
                """
                INSERT INTO cards(phase, step, stability, difficulty, due, last_review, reps, lapses, scheduled_days, version, item_id, learner_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values + [.integer(record.itemID), .integer(learner)])
        } else {
            try db.run(
                """
                UPDATE cards SET phase = ?, step = ?, stability = ?, difficulty = ?, due = ?, last_review = ?, reps = ?, lapses = ?,
                       scheduled_days = ?, version = ? WHERE item_id = ? AND learner_id = ?
                """, values + [.integer(record.itemID), .integer(learner)])
        }
    }

    static let itemColumns = "id, source, entry, reading, word, saved_at, details"
    static let cardColumns = "item_id, phase, step, stability, difficulty, due, last_review, reps, lapses, scheduled_days, version"
    static let reviewColumns = "id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id"

    static func learner(_ row: Row) -> Learner {
        Learner(id: row.int(0), name: row.text(1) ?? "", createdAt: row.double(2), settings: LearnerCoding.settings(row.text(3)))
    }

    static func item(_ row: Row) -> SavedItem {
        let source = EntryReference.Source(rawValue: row.text(1) ?? "") ?? .text
        let details = LearnerCoding.details(json: row.text(6))
        return SavedItem(
            id: row.int(0), key: ItemKey(source, row.text(2) ?? "", reading: row.text(3) ?? ""), word: row.text(4) ?? "",
            savedAt: row.double(5), details: details)
    }

    static func card(_ row: Row) -> CardRecord { card(row, from: 0) }

    static func card(_ row: Row, from i: Int) -> CardRecord {
        let memory = row.isNull(i + 3) ? nil : MemoryState(stability: row.double(i + 3), difficulty: row.double(i + 4))
        let card = Card(
            phase: Phase(rawValue: row.text(i + 1) ?? "") ?? .new, step: row.isNull(i + 2) ? nil : Int(row.int(i + 2)),
            memory: memory, due: row.double(i + 5), lastReview: row.isNull(i + 6) ? nil : row.double(i + 6),
            reps: Int(row.int(i + 7)), lapses: Int(row.int(i + 8)), scheduledDays: Int(row.int(i + 9)))
        return CardRecord(itemID: row.int(i), card: card, version: Int(row.int(i + 10)))
    }

    static func review(_ row: Row) -> ReviewEntry {
        ReviewEntry(
            id: row.int(0), itemID: row.int(1), reviewedAt: row.double(2), rating: Rating(rawValue: Int(row.int(3))) ?? .good,
            elapsedDays: Int(row.int(4)), before: LearnerCoding.card(json: row.text(5) ?? ""),
            after: LearnerCoding.card(json: row.text(6) ?? ""), clientID: row.text(7))
    }
}

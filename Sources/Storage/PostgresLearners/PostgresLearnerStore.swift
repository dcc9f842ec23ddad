import FSRS
import Foundation
import Learners
import PostgresNIO
import PostgresStore
import Vocabulary

/// Learner data in PostgreSQL, shared by every instance of `vocab serve` on the database.
///
/// The tables are user.sqlite's, with times as epoch seconds (double precision), so indexes on
/// them need no time-zone casts. A rating is one transaction that locks its card row
/// (`SELECT … FOR UPDATE`): a second rating of the same card, from any instance, waits and then
/// schedules from the first one's result, so no update is lost; with an expected version, the
/// later one is refused as stale. Every rating and undo notifies the other instances.
public final class PostgresLearnerStore: LearnerStore {
    public let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public static let migrator = PostgresMigrator(
        component: "learners",
        steps: [
            .init(
                1, "learners, tokens, items across sources, cards with versions and the review log",
                sql: """
                    CREATE TABLE learners(
                        id bigserial PRIMARY KEY, name text NOT NULL, name_key text NOT NULL UNIQUE,
                        created_at double precision NOT NULL, settings text NOT NULL DEFAULT '{}', password_hash text);
                    CREATE TABLE tokens(
                        hash bytea PRIMARY KEY, learner_id bigint NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
                        label text NOT NULL DEFAULT '', created_at double precision NOT NULL, revoked_at double precision);
                    CREATE INDEX tokens_learner ON tokens(learner_id);
                    CREATE TABLE items(
                        id bigserial PRIMARY KEY, learner_id bigint NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
                        source text NOT NULL, entry text NOT NULL, reading text NOT NULL DEFAULT '', word text NOT NULL,
                        saved_at double precision NOT NULL, details text, UNIQUE (learner_id, source, entry, reading));
                    CREATE TABLE cards(
                        item_id bigint PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE, learner_id bigint NOT NULL,
                        phase text NOT NULL, step int, stability double precision, difficulty double precision,
                        due double precision NOT NULL, last_review double precision, reps int NOT NULL, lapses int NOT NULL,
                        scheduled_days int NOT NULL, version int NOT NULL DEFAULT 0);
                    CREATE INDEX cards_due ON cards(learner_id, due);
                    CREATE TABLE reviews(
                        id bigserial PRIMARY KEY, learner_id bigint NOT NULL, item_id bigint NOT NULL,
                        reviewed_at double precision NOT NULL, rating int NOT NULL, elapsed_days int NOT NULL,
                        before text NOT NULL, after text NOT NULL, client_id text);
                    CREATE UNIQUE INDEX reviews_client ON reviews(learner_id, client_id) WHERE client_id IS NOT NULL;
                    CREATE INDEX reviews_time ON reviews(learner_id, reviewed_at);
                    """),
            .init(
                2, "browser sessions: the hash of each session cookie, its learner and when it expires",
                sql: """
                    CREATE TABLE sessions(
                        hash bytea PRIMARY KEY, learner_id bigint NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
                        created_at double precision NOT NULL, expires_at double precision NOT NULL);
                    CREATE INDEX sessions_learner ON sessions(learner_id, expires_at);
                    """),
            // As user.sqlite's step 4: no query reads cards through it, and every rating moved the
            // card's entry in it.
            .init(3, "drops the unused index of cards by learner and due time", sql: "DROP INDEX IF EXISTS cards_due;"),
            // As user.sqlite's step 6: progress pages read these, not the whole log.
            .init(
                4, "running totals of each learner's review log: reviews by quarter hour, answers by item",
                sql: """
                    CREATE TABLE review_slots(
                        learner_id bigint NOT NULL, slot bigint NOT NULL, reviews int NOT NULL, graded int NOT NULL, kept int NOT NULL,
                        PRIMARY KEY (learner_id, slot));
                    CREATE TABLE review_items(
                        learner_id bigint NOT NULL, item_id bigint NOT NULL, answers int NOT NULL, again int NOT NULL, spoken int NOT NULL,
                        PRIMARY KEY (learner_id, item_id));
                    """,
                then: { tx in
                    for row in try await tx.rows("SELECT DISTINCT learner_id FROM reviews") {
                        let learner = try row.decode(Int64.self)
                        let log = try await tx.rows("SELECT \(unescaped: reviewColumns) FROM reviews WHERE learner_id = \(learner)").map(review)
                        try await insert(ReviewTotals(log: log), learner: learner, in: tx)
                    }
                }),
        ])

    /// The payload of the notification a learner's change sends on `PostgresDocumentStore.channel`.
    public static func changePayload(learner: Int64) -> String { "learner:\(learner)" }

    // MARK: Learners

    public func createLearner(name: String, at time: Double) async throws -> Learner {
        let key = try LearnerCoding.nameKey(name)
        let settings = LearnerSettings()
        let text = try LearnerCoding.json(settings)
        let rows = try await database.rows(
            """
            INSERT INTO learners(name, name_key, created_at, settings) VALUES (\(name), \(key), \(time), \(text))
            ON CONFLICT (name_key) DO NOTHING RETURNING id
            """)
        guard let id = try rows.first?.decode(Int64.self) else { throw LearnerError.nameTaken(name) }
        return Learner(id: id, name: name, createdAt: time, settings: settings)
    }

    public func learner(named name: String) async throws -> Learner? {
        guard let key = try? LearnerCoding.nameKey(name) else { return nil }
        return try await database.rows("SELECT id, name, created_at, settings FROM learners WHERE name_key = \(key)").first.map(Self.learner)
    }

    public func learner(id: Int64) async throws -> Learner? {
        try await database.rows("SELECT id, name, created_at, settings FROM learners WHERE id = \(id)").first.map(Self.learner)
    }

    public func learners() async throws -> [Learner] {
        try await database.rows("SELECT id, name, created_at, settings FROM learners ORDER BY name_key").map(Self.learner)
    }

    public func updateSettings(_ settings: LearnerSettings, of learner: Int64) async throws {
        let text = try LearnerCoding.json(settings)
        try await database.rows("UPDATE learners SET settings = \(text) WHERE id = \(learner)")
    }

    public func addToken(hash: [UInt8], label: String, for learner: Int64, at time: Double) async throws {
        try await database.rows("INSERT INTO tokens(hash, learner_id, label, created_at) VALUES (\(Data(hash)), \(learner), \(label), \(time))")
    }

    public func learner(tokenHash: [UInt8]) async throws -> Learner? {
        try await database.rows(
            """
            SELECT l.id, l.name, l.created_at, l.settings FROM tokens t JOIN learners l ON l.id = t.learner_id
            WHERE t.hash = \(Data(tokenHash)) AND t.revoked_at IS NULL
            """
        ).first.map(Self.learner)
    }

    public func change(_ change: CredentialChange, of learner: Int64, at time: Double) async throws -> CredentialChange.Outcome {
        try await database.transaction { tx in
            var outcome = CredentialChange.Outcome()
            for step in change.steps {
                switch step {
                case .revokeLiveTokens:
                    outcome.tokensRevoked = try await tx.rows(
                        "UPDATE tokens SET revoked_at = \(time) WHERE learner_id = \(learner) AND revoked_at IS NULL RETURNING 1"
                    ).count
                case .endSessions:
                    try await tx.run("DELETE FROM sessions WHERE learner_id = \(learner)")
                case .setPasswordHash(let hash):
                    try await tx.run("UPDATE learners SET password_hash = \(hash) WHERE id = \(learner)")
                case .deleteOwnedRows(let tables):
                    for table in tables { try await tx.run("DELETE FROM \(unescaped: table) WHERE learner_id = \(learner)") }
                case .deleteLearnerRow:
                    outcome.learnerDeleted = try await tx.rows("DELETE FROM learners WHERE id = \(learner) RETURNING 1").count > 0
                    // Other instances drop what they keep of this learner.
                    try await Self.notify(learner: learner, in: tx)
                }
            }
            return outcome
        }
    }

    public func addSession(hash: [UInt8], for learner: Int64, at time: Double, expires: Double) async throws {
        try await database.transaction { tx in
            try await tx.run("DELETE FROM sessions WHERE learner_id = \(learner) AND expires_at <= \(time)")
            try await tx.run(
                """
                INSERT INTO sessions(hash, learner_id, created_at, expires_at) VALUES (\(Data(hash)), \(learner), \(time), \(expires))
                """)
        }
    }

    public func learner(sessionHash: [UInt8], at time: Double) async throws -> Learner? {
        try await database.rows(
            """
            SELECT l.id, l.name, l.created_at, l.settings FROM sessions s JOIN learners l ON l.id = s.learner_id
            WHERE s.hash = \(Data(sessionHash)) AND s.expires_at > \(time)
            """
        ).first.map(Self.learner)
    }

    public func removeSession(hash: [UInt8]) async throws -> Bool {
        try await !database.rows("DELETE FROM sessions WHERE hash = \(Data(hash)) RETURNING 1").isEmpty
    }

    public func passwordHash(of learner: Int64) async throws -> String? {
        try await database.rows("SELECT password_hash FROM learners WHERE id = \(learner)").first?.decode(String?.self) ?? nil
    }

    // MARK: Library

    public func save(_ items: [NewItem], for learner: Int64, at time: Double) async throws -> [(item: SavedItem, inserted: Bool)] {
        let rows = try items.map { ($0, try $0.details.map { try LearnerCoding.json($0) }) }
        let card = Card(due: time)
        return try await database.transaction { tx in
            var saved: [(item: SavedItem, inserted: Bool)] = []
            for (new, detailsText) in rows {
                let key = new.key
                let inserted = try await tx.rows(
                    """
                    INSERT INTO items(learner_id, source, entry, reading, word, saved_at, details)
                    VALUES (\(learner), \(key.source.rawValue), \(key.entry), \(key.reading), \(new.word), \(time), \(detailsText))
                    ON CONFLICT (learner_id, source, entry, reading) DO NOTHING RETURNING id
                    """)
                guard let id = try inserted.first?.decode(Int64.self) else {
                    guard let existing = try await Self.item(key, of: learner, in: tx) else { throw LearnerError.unknownLearner(String(learner)) }
                    saved.append((existing, false))
                    continue
                }
                try await Self.insert(CardRecord(itemID: id, card: card, version: 0), learner: learner, in: tx)
                saved.append((SavedItem(id: id, key: key, word: new.word, savedAt: time, details: new.details), true))
            }
            return saved
        }
    }

    public func items(of learner: Int64) async throws -> [SavedItem] {
        try await database.rows("SELECT \(unescaped: Self.itemColumns) FROM items WHERE learner_id = \(learner) ORDER BY saved_at, id").map(Self.item)
    }

    public func item(_ id: Int64, of learner: Int64) async throws -> SavedItem? {
        try await database.rows("SELECT \(unescaped: Self.itemColumns) FROM items WHERE id = \(id) AND learner_id = \(learner)").first.map(Self.item)
    }

    public func item(_ key: ItemKey, of learner: Int64) async throws -> SavedItem? {
        try await database.transaction { tx in try await Self.item(key, of: learner, in: tx) }
    }

    static func item(_ key: ItemKey, of learner: Int64, in tx: PostgresPool.Transaction) async throws -> SavedItem? {
        try await tx.rows(
            """
            SELECT \(unescaped: itemColumns) FROM items
            WHERE learner_id = \(learner) AND source = \(key.source.rawValue) AND entry = \(key.entry) AND reading = \(key.reading)
            """
        ).first.map(item)
    }

    public func remove(_ id: Int64, of learner: Int64) async throws -> Bool {
        // The card goes with its item (ON DELETE CASCADE); the log keeps its rows.
        let removed = try await database.rows("DELETE FROM items WHERE id = \(id) AND learner_id = \(learner) RETURNING 1")
        return !removed.isEmpty
    }

    public func rekey(_ id: Int64, to key: ItemKey, of learner: Int64) async throws {
        // As SQLite's UPDATE OR IGNORE: nothing when the learner has an item with that key already.
        try await database.rows(
            """
            UPDATE items SET source = \(key.source.rawValue), entry = \(key.entry), reading = \(key.reading)
            WHERE id = \(id) AND learner_id = \(learner) AND NOT EXISTS (
                SELECT 1 FROM items WHERE learner_id = \(learner) AND source = \(key.source.rawValue) AND entry = \(key.entry) AND reading = \(key.reading))
            """)
    }

    // MARK: Reviews

    public func card(of item: Int64, learner: Int64) async throws -> CardRecord? {
        try await database.rows("SELECT \(unescaped: Self.cardColumns) FROM cards WHERE item_id = \(item) AND learner_id = \(learner)")
            .first.map { try Self.card($0) }
    }

    public func cards(of learner: Int64) async throws -> [(item: SavedItem, card: CardRecord)] {
        let rows = try await database.rows(
            """
            SELECT i.id, i.source, i.entry, i.reading, i.word, i.saved_at, i.details,
                   c.item_id, c.phase, c.step, c.stability, c.difficulty, c.due, c.last_review, c.reps, c.lapses, c.scheduled_days, c.version
            FROM items i JOIN cards c ON c.item_id = i.id WHERE i.learner_id = \(learner) ORDER BY c.due, i.id
            """)
        return try rows.map { row in
            let cells = Array(row)
            return (try Self.item(cells), try Self.card(Array(cells[7...])))
        }
    }

    public func rate(_ request: RatingRequest) async throws -> RatingOutcome {
        do {
            return try await rateOnce(request)
        } catch let error as PSQLError where error.sqlState == "23505" && request.clientID != nil {
            // The same client id applied at this moment through another connection: now it is a repeat.
            return try await rateOnce(request)
        }
    }

    private func rateOnce(_ request: RatingRequest) async throws -> RatingOutcome {
        try await database.transaction { tx in
            let learner = request.learner
            if let clientID = request.clientID,
                let earlier = try await tx.rows(
                    """
                    SELECT \(unescaped: Self.reviewColumns) FROM reviews WHERE learner_id = \(learner) AND client_id = \(clientID)
                    """
                ).first.map(Self.review)
            {
                return request.replay(of: earlier, current: try await Self.card(of: earlier.itemID, learner: learner, lock: false, in: tx))
            }
            // The row lock orders ratings of one card across connections and instances.
            let change = try request.decide(on: try await Self.card(of: request.item, learner: learner, lock: true, in: tx))
            guard try await Self.update(change.updated, from: change.before.version, learner: learner, in: tx) else {
                throw LearnerError.stale(current: change.before)
            }
            let row = change.log
            let inserted = try await tx.rows(
                """
                INSERT INTO reviews(learner_id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id)
                VALUES (\(learner), \(row.item), \(row.reviewedAt), \(row.rating.rawValue), \(row.elapsedDays), \(row.beforeJSON), \(row.afterJSON), \(row.clientID))
                RETURNING id
                """)
            try await Self.count(row.totalsChange, sign: 1, learner: learner, in: tx)
            try await Self.notify(learner: learner, in: tx)
            return change.outcome(logID: try inserted.first?.decode(Int64.self) ?? 0)
        }
    }

    public func undoLastRating(of learner: Int64) async throws -> ReviewEntry {
        try await database.transaction { tx in
            guard
                let last = try await tx.rows(
                    """
                    SELECT \(unescaped: Self.reviewColumns) FROM reviews WHERE learner_id = \(learner) ORDER BY id DESC LIMIT 1 FOR UPDATE
                    """
                ).first.map(Self.review)
            else { throw LearnerError.nothingToUndo }
            let current = try await Self.card(of: last.itemID, learner: learner, lock: true, in: tx)
            if let current, let restored = UndoRule.restored(after: last, current: current) {
                _ = try await Self.update(restored, from: current.version, learner: learner, in: tx)
            }
            try await tx.run("DELETE FROM reviews WHERE id = \(last.id)")
            try await Self.count(last.totalsChange, sign: -1, learner: learner, in: tx)
            try await Self.notify(learner: learner, in: tx)
            return last
        }
    }

    /// A card as read inside a transaction; `lock` holds it against other writers until the end.
    static func card(of item: Int64, learner: Int64, lock: Bool, in tx: PostgresPool.Transaction) async throws -> CardRecord? {
        try await tx.rows(
            """
            SELECT \(unescaped: Self.cardColumns) FROM cards WHERE item_id = \(item) AND learner_id = \(learner) \(unescaped: lock ? "FOR UPDATE" : "")
            """
        ).first.map { try Self.card($0) }
    }

    public func reviews(of learner: Int64, since time: Double) async throws -> [ReviewEntry] {
        try await database.rows(
            """
            SELECT \(unescaped: Self.reviewColumns) FROM reviews WHERE learner_id = \(learner) AND reviewed_at >= \(time) ORDER BY reviewed_at, id
            """
        ).map(Self.review)
    }

    public func totals(of learner: Int64) async throws -> ReviewTotals {
        async let slots = database.rows("SELECT slot, reviews, graded, kept FROM review_slots WHERE learner_id = \(learner) ORDER BY slot")
        async let items = database.rows("SELECT item_id, answers, again, spoken FROM review_items WHERE learner_id = \(learner) ORDER BY item_id")
        // The index of the log by learner and time answers this from its last entry.
        async let last = database.rows("SELECT max(reviewed_at) FROM reviews WHERE learner_id = \(learner)")
        return ReviewTotals(
            slots: try await slots.map {
                let (slot, reviews, graded, kept) = try $0.decode((Int64, Int, Int, Int).self)
                return ReviewTotals.Slot(slot: slot, reviews: reviews, graded: graded, kept: kept)
            },
            items: try await items.map {
                let (item, answers, again, spoken) = try $0.decode((Int64, Int, Int, Int).self)
                return ReviewTotals.Item(itemID: item, answers: answers, again: again, spoken: spoken)
            },
            lastReviewAt: try await last.first?.decode(Double?.self) ?? nil)
    }

    /// Four statements for any number of learners: each child's few statements cost a class page
    /// of thirty a round trip and a parse each, most of its time.
    public func records(of learners: [Int64]) async throws -> [Int64: LearnerRecords] {
        let ids = Array(Set(learners))
        async let cardRows = database.rows(
            """
            SELECT i.id, i.source, i.entry, i.reading, i.word, i.saved_at, i.details,
                   c.item_id, c.phase, c.step, c.stability, c.difficulty, c.due, c.last_review, c.reps, c.lapses, c.scheduled_days, c.version,
                   i.learner_id
            FROM items i JOIN cards c ON c.item_id = i.id WHERE i.learner_id = ANY(\(ids)) ORDER BY c.due, i.id
            """)
        // A year is thousands of quarter hours a class: one text of numbers per learner, as
        // decoding a row, or an array's element, each was most of the page's time. In no order:
        // `ReviewTotals` sorts them, and sorting in the aggregate cost the server more.
        async let slotRows = database.rows(
            """
            SELECT learner_id, string_agg(concat_ws(',', slot, reviews, graded, kept), ',')
            FROM review_slots WHERE learner_id = ANY(\(ids)) GROUP BY learner_id
            """)
        async let itemRows = database.rows(
            """
            SELECT learner_id, string_agg(concat_ws(',', item_id, answers, again, spoken), ',')
            FROM review_items WHERE learner_id = ANY(\(ids)) GROUP BY learner_id
            """)
        // One look into the log's index for each learner, not a scan of their logs.
        async let lastRows = database.rows(
            "SELECT l.id, (SELECT max(r.reviewed_at) FROM reviews r WHERE r.learner_id = l.id) FROM unnest(\(ids)::bigint[]) AS l(id)")
        var cards: [Int64: [(item: SavedItem, card: CardRecord)]] = [:]
        for row in try await cardRows {
            let cells = Array(row)
            cards[try cells[18].decode(Int64.self), default: []].append((try Self.item(cells), try Self.card(Array(cells[7...]))))
        }
        var slots: [Int64: [ReviewTotals.Slot]] = [:]
        for row in try await slotRows {
            let (learner, text) = try row.decode((Int64, String).self)
            slots[learner] = Self.fours(text).map { ReviewTotals.Slot(slot: $0.0, reviews: Int($0.1), graded: Int($0.2), kept: Int($0.3)) }
        }
        var items: [Int64: [ReviewTotals.Item]] = [:]
        for row in try await itemRows {
            let (learner, text) = try row.decode((Int64, String).self)
            items[learner] = Self.fours(text).map { ReviewTotals.Item(itemID: $0.0, answers: Int($0.1), again: Int($0.2), spoken: Int($0.3)) }
        }
        var last: [Int64: Double] = [:]
        for row in try await lastRows {
            let (learner, at) = try row.decode((Int64, Double?).self)
            last[learner] = at
        }
        return Dictionary(
            uniqueKeysWithValues: ids.map { id in
                (
                    id,
                    LearnerRecords(
                        cards: cards[id] ?? [], totals: ReviewTotals(slots: slots[id] ?? [], items: items[id] ?? [], lastReviewAt: last[id]))
                )
            })
    }

    // MARK: Rows

    /// "1,2,3,4,5,6,7,8" as (1, 2, 3, 4), (5, 6, 7, 8): the rows `records(of:)` reads as one text.
    static func fours(_ text: String) -> [(Int64, Int64, Int64, Int64)] {
        var numbers: [Int64] = []
        var value: Int64 = 0
        var negative = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "-"): negative = true
            default:
                numbers.append(negative ? -value : value)
                value = 0
                negative = false
            }
        }
        if !text.isEmpty { numbers.append(negative ? -value : value) }
        return stride(from: 0, to: numbers.count - 3, by: 4).map { (numbers[$0], numbers[$0 + 1], numbers[$0 + 2], numbers[$0 + 3]) }
    }

    /// Adds a log row's change to the totals (`sign` 1), or takes it away (-1, an undo); a
    /// quarter hour or an item left with no review has no row. Ratings of one learner's cards
    /// from several connections meet at the quarter hour's row, which orders them.
    static func count(_ change: ReviewTotals.Change, sign: Int, learner: Int64, in tx: PostgresPool.Transaction) async throws {
        try await tx.run(
            """
            INSERT INTO review_slots(learner_id, slot, reviews, graded, kept)
            VALUES (\(learner), \(change.slot), \(sign), \(sign * change.graded), \(sign * change.kept))
            ON CONFLICT (learner_id, slot) DO UPDATE SET reviews = review_slots.reviews + excluded.reviews,
                graded = review_slots.graded + excluded.graded, kept = review_slots.kept + excluded.kept
            """)
        try await tx.run(
            """
            INSERT INTO review_items(learner_id, item_id, answers, again, spoken)
            VALUES (\(learner), \(change.item), \(sign), \(sign * change.again), \(sign * change.spoken))
            ON CONFLICT (learner_id, item_id) DO UPDATE SET answers = review_items.answers + excluded.answers,
                again = review_items.again + excluded.again, spoken = review_items.spoken + excluded.spoken
            """)
        if sign < 0 {
            try await tx.run("DELETE FROM review_slots WHERE learner_id = \(learner) AND slot = \(change.slot) AND reviews <= 0")
            try await tx.run("DELETE FROM review_items WHERE learner_id = \(learner) AND item_id = \(change.item) AND answers <= 0")
        }
    }

    /// Writes the totals of a log counted whole (`ReviewTotals(log:)`), for a learner with none
    /// yet: two statements, the rows as arrays, so an upgrade of a year of logs is not a round
    /// trip per quarter hour.
    static func insert(_ totals: ReviewTotals, learner: Int64, in tx: PostgresPool.Transaction) async throws {
        let s = totals.slots
        let i = totals.items
        if !s.isEmpty {
            try await tx.run(
                """
                INSERT INTO review_slots(learner_id, slot, reviews, graded, kept)
                SELECT \(learner), * FROM unnest(\(s.map(\.slot)), \(s.map(\.reviews)), \(s.map(\.graded)), \(s.map(\.kept)))
                """)
        }
        if !i.isEmpty {
            try await tx.run(
                """
                INSERT INTO review_items(learner_id, item_id, answers, again, spoken)
                SELECT \(learner), * FROM unnest(\(i.map(\.itemID)), \(i.map(\.answers)), \(i.map(\.again)), \(i.map(\.spoken)))
                """)
        }
    }

    static func notify(learner: Int64, in tx: PostgresPool.Transaction) async throws {
        try await tx.run("SELECT pg_notify(\(PostgresDocumentStore.channel), \(changePayload(learner: learner)))")
    }

    static func insert(_ record: CardRecord, learner: Int64, in tx: PostgresPool.Transaction) async throws {
        let c = record.card
        try await tx.run(
            """
            INSERT INTO cards(item_id, learner_id, phase, step, stability, difficulty, due, last_review, reps, lapses, scheduled_days, version)
            VALUES (\(record.itemID), \(learner), \(c.phase.rawValue), \(c.step), \(c.memory?.stability), \(c.memory?.difficulty), \(c.due),
                    \(c.lastReview), \(c.reps), \(c.lapses), \(c.scheduledDays), \(record.version))
            """)
    }

    /// Writes a card if its version is still `version`; false when another writer got there first.
    static func update(_ record: CardRecord, from version: Int, learner: Int64, in tx: PostgresPool.Transaction) async throws -> Bool {
        let c = record.card
        let rows = try await tx.rows(
            """
            UPDATE cards SET phase = \(c.phase.rawValue), step = \(c.step), stability = \(c.memory?.stability), difficulty = \(c.memory?.difficulty),
                   due = \(c.due), last_review = \(c.lastReview), reps = \(c.reps), lapses = \(c.lapses), scheduled_days = \(c.scheduledDays),
                   version = \(record.version)
            WHERE item_id = \(record.itemID) AND learner_id = \(learner) AND version = \(version) RETURNING 1
            """)
        return !rows.isEmpty
    }

    static let itemColumns = "id, source, entry, reading, word, saved_at, details"
    static let cardColumns = "item_id, phase, step, stability, difficulty, due, last_review, reps, lapses, scheduled_days, version"
    static let reviewColumns = "id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id"

    static func learner(_ row: PostgresRow) throws -> Learner {
        let (id, name, createdAt, settings) = try row.decode((Int64, String, Double, String).self)
        return Learner(id: id, name: name, createdAt: createdAt, settings: LearnerCoding.settings(settings))
    }

    static func item(_ row: PostgresRow) throws -> SavedItem { try item(Array(row)) }

    static func item(_ cells: [PostgresCell]) throws -> SavedItem {
        let source = EntryReference.Source(rawValue: try cells[1].decode(String.self)) ?? .text
        return SavedItem(
            id: try cells[0].decode(Int64.self),
            key: ItemKey(source, try cells[2].decode(String.self), reading: try cells[3].decode(String.self)),
            word: try cells[4].decode(String.self), savedAt: try cells[5].decode(Double.self),
            details: LearnerCoding.details(json: try cells[6].decode(String?.self)))
    }

    static func card(_ row: PostgresRow) throws -> CardRecord { try card(Array(row)) }

    static func card(_ cells: [PostgresCell]) throws -> CardRecord {
        let stability = try cells[3].decode(Double?.self)
        let difficulty = try cells[4].decode(Double?.self)
        let memory = stability.map { MemoryState(stability: $0, difficulty: difficulty ?? 0) }
        let card = Card(
            phase: Phase(rawValue: try cells[1].decode(String.self)) ?? .new, step: try cells[2].decode(Int?.self),
            memory: memory, due: try cells[5].decode(Double.self), lastReview: try cells[6].decode(Double?.self),
            reps: try cells[7].decode(Int.self), lapses: try cells[8].decode(Int.self), scheduledDays: try cells[9].decode(Int.self))
        return CardRecord(itemID: try cells[0].decode(Int64.self), card: card, version: try cells[10].decode(Int.self))
    }

    static func review(_ row: PostgresRow) throws -> ReviewEntry {
        let (id, itemID, reviewedAt, rating, elapsed, before, after, clientID) =
            try row.decode((Int64, Int64, Double, Int, Int, String, String, String?).self)
        return ReviewEntry(
            id: id, itemID: itemID, reviewedAt: reviewedAt, rating: Rating(rawValue: rating) ?? .good, elapsedDays: elapsed,
            before: LearnerCoding.card(json: before), after: LearnerCoding.card(json: after), clientID: clientID)
    }
}

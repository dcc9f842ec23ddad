import SQLiteDB
import Store

/// The layout of user.sqlite, versioned like every file vocab writes. The document store's
/// tables hold downloaded definitions and quiz history; the learner tables hold learners, their
/// tokens, libraries, cards and review logs.
public enum UserDatabase {
    public static let migrator = Migrator(
        file: "user.sqlite",
        steps: [
            // Files written before versions existed have exactly these tables: the step is a no-op
            // for them and only stamps the version.
            Migrator.Step(1, "documents: saved words, downloaded definitions, quiz history") { db in
                try db.execute(SQLiteDocumentStore.schema)
            },
            Migrator.Step(2, "learners, tokens, items across sources, cards and the review log; saved words become items of the local learner") { db in
                try db.execute(learnerTables)
                // Saved words become the local learner's items. Catalog words were saved by headword;
                // the headword is kept as a pending entry ("headword:cat") until the catalog resolves
                // it to an entry id. Dates were stored as seconds since 2001 (Foundation's reference).
                try db.execute(
                    """
                    INSERT INTO learners(id, name, name_key, created_at) VALUES (1, 'me', 'me', CAST(strftime('%s', 'now') AS REAL));
                    INSERT OR IGNORE INTO items(learner_id, source, entry, reading, word, saved_at, details)
                    SELECT 1,
                           CASE json_extract(body, '$.source') WHEN 'dictionary' THEN 'dictionary' ELSE 'catalog' END,
                           CASE json_extract(body, '$.source') WHEN 'dictionary' THEN lower(json_extract(body, '$.word'))
                                ELSE 'headword:' || json_extract(body, '$.word') END,
                           '', json_extract(body, '$.word'), json_extract(body, '$.savedAt') + 978307200,
                           CASE json_extract(body, '$.source') WHEN 'dictionary' THEN json_object(
                               'definition', json_extract(body, '$.definition'), 'partOfSpeech', json_extract(body, '$.partOfSpeech'),
                               'phonetic', json_extract(body, '$.phonetic')) END
                    FROM documents WHERE collection = 'library';
                    INSERT INTO cards(item_id, learner_id, phase, due, reps, lapses, scheduled_days, version)
                    SELECT id, learner_id, 'new', saved_at, 0, 0, 0, 0 FROM items;
                    DELETE FROM field_index WHERE collection = 'library';
                    DELETE FROM documents WHERE collection = 'library';
                    """)
            },
            Migrator.Step(3, "browser sessions: the hash of each session cookie, its learner and when it expires") { db in
                try db.execute(sessionTable)
            },
            // No query reads cards through this index (a learner's cards are found through the
            // items' own index, one card through its key), yet every rating moved the card's entry
            // in it: one more page written to the log per rating, a fifth of the writes.
            Migrator.Step(4, "drops the unused index of cards by learner and due time") { db in
                try db.execute("DROP INDEX IF EXISTS cards_due")
            },
            // Revoking a learner's tokens found them by scanning every token; PostgreSQL had
            // this index from its first step.
            Migrator.Step(5, "an index of tokens by learner, as on PostgreSQL") { db in
                try db.execute("CREATE INDEX IF NOT EXISTS tokens_learner ON tokens(learner_id)")
            },
            // Progress pages read every review each time, and slowed down all year (a class of
            // eight: 798 ms a page at 16,000 reviews); they read these totals instead.
            Migrator.Step(6, "running totals of each learner's review log: reviews by quarter hour, answers by item") { db in
                try db.execute(totalsTables)
                let learners = try db.query("SELECT DISTINCT learner_id FROM reviews") { $0.int(0) }
                for learner in learners {
                    let log = try db.query(
                        "SELECT \(SQLiteLearnerStore.reviewColumns) FROM reviews WHERE learner_id = ?", [.integer(learner)],
                        map: SQLiteLearnerStore.review)
                    try SQLiteLearnerStore.insert(ReviewTotals(log: log), learner: learner, in: db)
                }
            },
        ])

    static let totalsTables = """
        CREATE TABLE review_slots(
            learner_id INTEGER NOT NULL, slot INTEGER NOT NULL, reviews INTEGER NOT NULL, graded INTEGER NOT NULL,
            kept INTEGER NOT NULL, PRIMARY KEY (learner_id, slot)) WITHOUT ROWID;
        CREATE TABLE review_items(
            learner_id INTEGER NOT NULL, item_id INTEGER NOT NULL, answers INTEGER NOT NULL, again INTEGER NOT NULL,
            spoken INTEGER NOT NULL, PRIMARY KEY (learner_id, item_id)) WITHOUT ROWID;
        """

    static let sessionTable = """
        CREATE TABLE sessions(
            hash BLOB PRIMARY KEY, learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
            created_at REAL NOT NULL, expires_at REAL NOT NULL) WITHOUT ROWID;
        CREATE INDEX sessions_learner ON sessions(learner_id, expires_at);
        """

    static let learnerTables = """
        CREATE TABLE learners(
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL, settings TEXT NOT NULL DEFAULT '{}', password_hash TEXT);
        CREATE TABLE tokens(
            hash BLOB PRIMARY KEY, learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
            label TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL, revoked_at REAL) WITHOUT ROWID;
        CREATE TABLE items(
            id INTEGER PRIMARY KEY, learner_id INTEGER NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
            source TEXT NOT NULL, entry TEXT NOT NULL, reading TEXT NOT NULL DEFAULT '', word TEXT NOT NULL,
            saved_at REAL NOT NULL, details TEXT, UNIQUE(learner_id, source, entry, reading));
        CREATE TABLE cards(
            item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE, learner_id INTEGER NOT NULL,
            phase TEXT NOT NULL, step INTEGER, stability REAL, difficulty REAL, due REAL NOT NULL, last_review REAL,
            reps INTEGER NOT NULL, lapses INTEGER NOT NULL, scheduled_days INTEGER NOT NULL, version INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX cards_due ON cards(learner_id, due);
        CREATE TABLE reviews(
            id INTEGER PRIMARY KEY, learner_id INTEGER NOT NULL, item_id INTEGER NOT NULL, reviewed_at REAL NOT NULL,
            rating INTEGER NOT NULL, elapsed_days INTEGER NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL, client_id TEXT);
        CREATE UNIQUE INDEX reviews_client ON reviews(learner_id, client_id) WHERE client_id IS NOT NULL;
        CREATE INDEX reviews_time ON reviews(learner_id, reviewed_at);
        """
}

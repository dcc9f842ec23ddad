import SQLiteDB

/// Cache entries and counters in their own SQLite file, so they outlive each CLI process
/// and survive the catalog database being rebuilt and swapped.
public actor SQLiteCacheStorage: CacheStorage {
    private let db: Database
    /// Told, once, that an entry or a count was not stored because the disk is full.
    private let onOutOfSpace: @Sendable () -> Void
    private var toldOutOfSpace = false

    /// The file's layout and the payload formats of its entries, in `user_version`. A step that
    /// changes how payloads are encoded empties the entries: a cache can always be recomputed.
    public static let migrator = Migrator(
        file: "cache.sqlite",
        steps: [
            Migrator.Step(1, "entries and counters") { db in
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS cache_entries(key TEXT PRIMARY KEY, token TEXT NOT NULL, payload BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS cache_counters(name TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
                    """)
            },
            Migrator.Step(2, "word rows and category counts in their binary forms (rows1, counts1)") { db in
                try db.execute("DELETE FROM cache_entries")
            },
        ])

    public init(path: String, onOutOfSpace: @escaping @Sendable () -> Void = {}) throws {
        self.onOutOfSpace = onOutOfSpace
        var database = try Database(path: path)
        // A cache can always be recomputed, so it never waits for the disk (no fsync): losing
        // the last entries in a power cut costs a recomputation, not data. A rollback journal,
        // not WAL: most opens only read (`vocab words` answered from the cache), and a WAL file
        // is written on every open, to set up its shared-memory index, even by a reader.
        try retryingWhileBusy { try database.execute("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;") }
        do {
            try Self.migrator.migrate(database)
        } catch is MigrationError {
            // Written by a newer vocab: start afresh rather than refuse to cache.
            database = try Database(path: path)
            try database.execute("DROP TABLE IF EXISTS cache_entries; DROP TABLE IF EXISTS cache_counters; PRAGMA user_version = 0;")
            try Self.migrator.migrate(database)
        }
        db = database
    }

    public func entry(for key: String) throws -> (token: String, payload: [UInt8])? {
        try db.query("SELECT token, payload FROM cache_entries WHERE key = ?", [.text(key)]) {
            ($0.text(0) ?? "", $0.bytes(1))
        }.first
    }

    public func save(_ payload: [UInt8], token: String, for key: String) throws {
        try unlessFull { try db.run("INSERT OR REPLACE INTO cache_entries VALUES (?, ?, ?)", [.text(key), .text(token), .blob(payload)]) }
    }

    /// A cache that cannot grow still answers: on a full disk, what it could not store is
    /// computed again next time.
    private func unlessFull(_ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as SQLiteError where error.isDiskFull {
            if !toldOutOfSpace {
                toldOutOfSpace = true
                onOutOfSpace()
            }
        }
    }

    /// Counts what was computed (a miss or an invalidation, which writes its entry anyway).
    /// Hits are not counted here: a hit is a read, and counting it would make every `vocab
    /// words` answered from the cache write the file (`--verbose` says when a command hit).
    public func record(_ outcome: CacheOutcome) throws {
        let names: [String] =
            switch outcome {
            case .hit: []
            case .miss: ["misses"]
            case .invalidated: ["misses", "invalidations"]
            }
        for name in names {
            try unlessFull {
                try db.run(
                    """
                    INSERT INTO cache_counters VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET count = count + 1
                    """, [.text(name)])
            }
        }
    }

    public func statistics() throws -> CacheStatistics {
        var counts: [String: Int] = [:]
        for (name, n) in try db.query("SELECT name, count FROM cache_counters", map: { ($0.text(0) ?? "", Int($0.int(1))) }) {
            counts[name] = n
        }
        let entries = Int(try db.scalar("SELECT count(*) FROM cache_entries")?.intValue ?? 0)
        return CacheStatistics(
            hits: nil, misses: counts["misses"] ?? 0,
            invalidations: counts["invalidations"] ?? 0, entries: entries)
    }

    public func removeAll() throws {
        try db.execute("DELETE FROM cache_entries; DELETE FROM cache_counters;")
    }
}

import Foundation
import SQLiteDB
import TestSupport
import Testing

/// A connection that takes over checkpoints: SQLite no longer copies the log inside its commits,
/// it reports the log's length after each commit, and `checkpoint()` copies the log when asked.
@Suite("Checkpoints taken over by the connection's owner")
struct CheckpointTests {
    static func database(in dir: TemporaryDirectory) throws -> (Database, String) {
        let path = dir.file("t.sqlite")
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(n INTEGER PRIMARY KEY, data BLOB)")
        return (db, path)
    }

    @Test("after takeOverCheckpoints the log grows past SQLite's 1,000 frames; logFrames follows it; checkpoint() copies all of it")
    func takenOver() throws {
        let dir = try TemporaryDirectory("checkpoint")
        defer { dir.remove() }
        let (db, path) = try Self.database(in: dir)
        #expect(db.logFrames == nil, "nothing reported before the hook")
        db.takeOverCheckpoints()
        var lengths: [Int] = []
        for n in 1...1_500 {
            try db.run("INSERT INTO t(n, data) VALUES (?, zeroblob(3000))", [.integer(Int64(n))])
            lengths.append(db.logFrames ?? -1)
        }
        #expect(lengths == lengths.sorted(), "the log only grew: no checkpoint restarted it")
        #expect(lengths.last! >= 1_500)
        let reader = try Database(path: path, mode: .readOnly)
        #expect(try reader.scalar("SELECT count(*) FROM t")?.intValue == 1_500)

        let (log, copied) = try db.checkpoint()
        #expect(log == lengths.last! && copied == log)
        // All of the log is in the database: the next commit writes it again from its beginning.
        try db.run("INSERT INTO t(n, data) VALUES (0, zeroblob(10))")
        #expect(db.logFrames! < 10)
        #expect(try reader.scalar("SELECT count(*) FROM t")?.intValue == 1_501)
    }

    @Test("without the take-over SQLite checkpoints by itself: the log starts again near 1,000 frames")
    func sqlitesOwn() throws {
        let dir = try TemporaryDirectory("checkpoint")
        defer { dir.remove() }
        let (db, _) = try Self.database(in: dir)
        for n in 1...1_500 { try db.run("INSERT INTO t(n, data) VALUES (?, zeroblob(3000))", [.integer(Int64(n))]) }
        let (log, _) = try db.checkpoint()
        #expect(log < 1_100, "log: \(log) frames")
    }
}

import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import SQLiteDB

/// The writer and readers of a learner store (user.sqlite) on a real SQLite file: writes that queue up during a
/// commit share the next transaction, each can fail alone, and reads never wait for the writer.
@Suite("Group commit: one writer, many writes per transaction, reads beside it")
struct GroupCommitTests {
    struct Failing: Error, Equatable { var n: Int }

    /// A file with a table, opened as the store opens user.sqlite.
    static func database(_ dir: TemporaryDirectory) throws -> (Database, String) {
        let path = dir.file("t.sqlite")
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE t(n INTEGER PRIMARY KEY, note TEXT)")
        return (db, path)
    }

    /// Holds the writer inside a transaction until `release` is signalled; returns once it is held.
    static func holdWriter(_ writer: GroupCommitWriter, release: DispatchSemaphore) async -> Task<Void, any Error> {
        let held = Mutex(false)
        let task = Task {
            try await writer.write { db in
                try db.run("INSERT INTO t(n, note) VALUES (0, 'held')")
                held.withLock { $0 = true }
                release.wait()
            }
        }
        await waitUntil { held.withLock { $0 } }
        return task
    }

    static func waitUntil(_ condition: () -> Bool) async {
        while !condition() { try? await Task.sleep(for: .milliseconds(2)) }
    }

    @Test("writes that arrive during a commit go into the next transaction together; a failing one takes back only itself")
    func writesShareATransaction() async throws {
        let dir = try TemporaryDirectory("group-commit")
        defer { dir.remove() }
        let (db, path) = try Self.database(dir)
        let writer = GroupCommitWriter(db, label: "test.writer")
        let release = DispatchSemaphore(value: 0)
        let held = await Self.holdWriter(writer, release: release)
        final class Outcomes: Sendable { let results = Mutex<[Int: Result<Int, Failing>]>([:]) }
        let outcomes = Outcomes()
        let writes = Task {
            await withTaskGroup(of: Void.self) { group in
                for n in 1...50 {
                    group.addTask {
                        do {
                            let id = try await writer.write { db -> Int in
                                try db.run("INSERT INTO t(n, note) VALUES (?, 'write')", [.integer(Int64(n))])
                                if n % 7 == 0 { throw Failing(n: n) } // after writing: the savepoint must take it back
                                return n
                            }
                            outcomes.results.withLock { $0[n] = .success(id) }
                        } catch let error as Failing {
                            outcomes.results.withLock { $0[n] = .failure(error) }
                        } catch {
                            Issue.record("write \(n): \(error)")
                        }
                    }
                }
            }
        }
        // All 50 wait behind the held transaction, then are committed in one more.
        await Self.waitUntil { writer.waiting == 50 }
        release.signal()
        try await held.value
        await writes.value
        #expect(writer.committed.transactions == 2)
        #expect(writer.committed.writes == 51)
        let outcome = outcomes.results.withLock { $0 }
        #expect(outcome.count == 50)
        for n in 1...50 {
            if n % 7 == 0 { #expect(outcome[n] == .failure(Failing(n: n))) } else { #expect(outcome[n] == .success(n)) }
        }
        // What another connection finds on disk: every write that succeeded, none that failed.
        let check = try Database(path: path, mode: .readOnly)
        let stored = try check.query("SELECT n FROM t WHERE note = 'write' ORDER BY n") { Int($0.int(0)) }
        #expect(stored == (1...50).filter { $0 % 7 != 0 })
    }

    @Test("a write is answered after its commit: another connection sees it at once")
    func answeredAfterCommit() async throws {
        let dir = try TemporaryDirectory("group-commit")
        defer { dir.remove() }
        let (db, path) = try Self.database(dir)
        let writer = GroupCommitWriter(db, label: "test.writer")
        let outside = try Database(path: path)
        for n in 1...20 {
            try await writer.write { db in try db.run("INSERT INTO t(n, note) VALUES (?, 'x')", [.integer(Int64(n))]) }
            #expect(try outside.scalar("SELECT count(*) FROM t")?.intValue == Int64(n))
        }
    }

    @Test("reads are answered while the writer is inside a transaction, from the last commit")
    func readsDoNotWaitForTheWriter() async throws {
        let dir = try TemporaryDirectory("group-commit")
        defer { dir.remove() }
        let (db, path) = try Self.database(dir)
        let writer = GroupCommitWriter(db, label: "test.writer")
        let readers = ReaderPool(path: path, label: "test.readers")
        try await writer.write { db in try db.run("INSERT INTO t(n, note) VALUES (1, 'committed')") }
        let release = DispatchSemaphore(value: 0)
        let held = await Self.holdWriter(writer, release: release)
        // If reads went through the writer, these would wait for the release below, which
        // only comes after them: the test would never end.
        let notes = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { try await readers.read { db in try db.query("SELECT note FROM t ORDER BY n") { $0.text(0) ?? "" } } } }
            return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        #expect(notes == Array(repeating: "committed", count: 4), "the held row is not committed yet")
        release.signal()
        try await held.value
        #expect(try await readers.read { db in try db.scalar("SELECT count(*) FROM t")?.intValue } == 2)
        // A reader cannot write.
        await #expect(throws: SQLiteError.self) { try await readers.read { db in try db.run("DELETE FROM t") } }
    }
}

/// The write-ahead log is copied into the database beside the writer, not inside its commits,
/// and still starts again from its beginning under steady writes (else it would grow without end).
@Suite("Checkpoints beside the writer")
struct LogCheckpointTests {
    /// Writes rows 1...count of about a page each, `concurrent` at a time so that commits group,
    /// while a reader, reading as the server's token lookups do (briefly, all the time), checks
    /// that what it sees only grows.
    static func steadyWrites(_ writer: GroupCommitWriter, readers: ReaderPool, count: Int, concurrent: Int = 16) async throws {
        let blob = SQLValue.blob([UInt8](repeating: 7, count: 3_000))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var seen: Int64 = 0
                while seen < Int64(count) {
                    let now = try await readers.read { db in try db.scalar("SELECT coalesce(max(n), 0) FROM t")?.intValue ?? -1 }
                    #expect(now >= seen, "a reader saw rows disappear")
                    seen = now
                }
            }
            for start in stride(from: 0, to: count, by: concurrent) {
                try await withThrowingTaskGroup(of: Void.self) { batch in
                    for n in start..<min(count, start + concurrent) {
                        batch.addTask {
                            try await writer.write { db in try db.run("INSERT INTO t(n, note, data) VALUES (?, 'w', ?)", [.integer(Int64(n + 1)), blob]) }
                        }
                    }
                    try await batch.waitForAll()
                }
            }
            try await group.waitForAll()
        }
    }

    /// A file written by a writer with a checkpointer of the given sizes (on another file's path
    /// when `checkpointing` is set), after `steadyWrites`.
    static func steadyWrites(in dir: TemporaryDirectory, sizes: LogCheckpointer.Sizes, count: Int, checkpointing: String? = nil)
        async throws -> (path: String, writer: GroupCommitWriter, checkpointer: LogCheckpointer)
    {
        let path = dir.file("t.sqlite")
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE t(n INTEGER PRIMARY KEY, note TEXT, data BLOB)")
        let checkpointer = LogCheckpointer(path: checkpointing ?? path, label: "test.checkpointer", sizes: sizes)
        let writer = GroupCommitWriter(db, label: "test.writer", checkpointer: checkpointer)
        try await steadyWrites(writer, readers: ReaderPool(path: path, label: "test.readers"), count: count)
        return (path, writer, checkpointer)
    }

    static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? NSNumber)?.intValue ?? 0
    }

    @Test("under steady writes, passes beside the writer copy the log and it starts again, staying short; nothing is lost")
    func logStaysShort() async throws {
        let dir = try TemporaryDirectory("checkpoints")
        defer { dir.remove() }
        let sizes = LogCheckpointer.Sizes(start: 200, tail: 80, limit: 100_000)
        let (path, writer, checkpointer) = try await Self.steadyWrites(in: dir, sizes: sizes, count: 6_000)

        let status = checkpointer.status
        #expect(status.passes > 0 && status.failures == 0)
        // About 6,000 frames were written: with SQLite's checkpoints off and none here, the log
        // would hold them all (24 MB); `limit` is far away, so only the passes and the writer's
        // copies of their tails can have kept it short.
        #expect(writer.logRestarts >= 5, "restarts: \(writer.logRestarts)")
        #expect(Self.walBytes(path) < 6 * sizes.start * 4_120, "log: \(Self.walBytes(path)) bytes")
        let check = try Database(path: path, mode: .readOnly)
        #expect(try check.scalar("SELECT count(*) FROM t")?.intValue == 6_000)
        #expect(try check.scalar("SELECT sum(length(data)) FROM t")?.intValue == 6_000 * 3_000)
        #expect(try check.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    @Test("a checkpointer that cannot open the database leaves the log to the writer, which copies all of it at the limit")
    func failingCheckpointer() async throws {
        let dir = try TemporaryDirectory("checkpoints")
        defer { dir.remove() }
        let sizes = LogCheckpointer.Sizes(start: 100, tail: 40, limit: 600)
        let (path, writer, checkpointer) = try await Self.steadyWrites(
            in: dir, sizes: sizes, count: 3_000,
            checkpointing: dir.file("missing/t.sqlite"))

        let status = checkpointer.status
        #expect(status.failures > 0 && status.failures == status.passes)
        #expect(writer.logRestarts >= 2, "restarts: \(writer.logRestarts)")
        #expect(Self.walBytes(path) < 2 * sizes.limit * 4_120, "log: \(Self.walBytes(path)) bytes")
        #expect(try Database(path: path, mode: .readOnly).scalar("SELECT count(*) FROM t")?.intValue == 3_000)
    }
}

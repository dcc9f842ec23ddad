import Dispatch
import SQLiteDB
import Synchronization

/// The one connection that writes a database, on a thread of its own (a commit waits for the
/// disk, which must not hold one of Swift's cooperative threads). Writes that arrive while a
/// commit is being made durable are committed together in the next transaction, each inside a
/// savepoint of its own (group commit): one fsync for many writes, and a write that fails
/// takes back only itself. A caller is answered only once its transaction is on disk.
final class GroupCommitWriter: @unchecked Sendable {
    /// Most writes in one transaction, so that one batch cannot grow without end.
    static let maxBatch = 256

    // Made on the caller's thread, run and answered on the writer's queue only.
    private struct Job: @unchecked Sendable {
        /// Runs the write inside its savepoint; false when it failed (and must be rolled back).
        let run: (Database) -> Bool
        /// Answers the caller: nil once the batch committed, else why it did not.
        let answer: (Error?) -> Void
    }

    /// Touched only on `queue`.
    private let db: Database
    private let queue: DispatchQueue
    private let state = Mutex<(jobs: [Job], draining: Bool)>(([], false))
    private let counts = Mutex<(transactions: Int, writes: Int)>((0, 0))

    /// Writes waiting for the next transaction.
    var waiting: Int { state.withLock { $0.jobs.count } }
    /// Transactions committed and the writes they carried, for the log and the tests.
    var committed: (transactions: Int, writes: Int) { counts.withLock { $0 } }

    init(_ db: Database, label: String) {
        self.db = db
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` in a write transaction, alone or with others, and returns once it is durable.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            // Set on the writer's queue before `answer` runs there.
            nonisolated(unsafe) var result: Result<T, any Error> = .failure(CancellationError())
            let job = Job(run: { db in
                result = Result { try body(db) }
                if case .success = result { return true }
                return false
            }, answer: { commitError in
                if let commitError, case .success = result {
                    continuation.resume(throwing: commitError)
                } else {
                    continuation.resume(with: result)
                }
            })
            let start = state.withLock { state in
                state.jobs.append(job)
                defer { state.draining = true }
                return !state.draining
            }
            if start { queue.async { self.drain() } }
        }
    }

    /// Commits batches until no write is waiting.
    private func drain() {
        while true {
            let batch: [Job] = state.withLock { state in
                if state.jobs.isEmpty {
                    state.draining = false
                    return []
                }
                let taken = Array(state.jobs.prefix(Self.maxBatch))
                state.jobs.removeFirst(taken.count)
                return taken
            }
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    private func commit(_ batch: [Job]) {
        do {
            try retryingWhileBusy { try db.execute("BEGIN IMMEDIATE") }
        } catch {
            for job in batch { job.answer(error) }
            return
        }
        var ran = 0
        for job in batch {
            // An I/O error or a full disk can end the whole transaction; later writes must not
            // then run outside it, each committing on its own while its caller is told it failed.
            guard db.isInTransaction else { break }
            do {
                try db.run("SAVEPOINT write")
            } catch {
                break
            }
            if job.run(db) {
                try? db.run("RELEASE write")
            } else {
                try? db.run("ROLLBACK TO write")
                try? db.run("RELEASE write")
            }
            ran += 1
        }
        do {
            guard ran == batch.count, db.isInTransaction else { throw TransactionEnded() }
            try db.execute("COMMIT")
            counts.withLock { $0 = ($0.transactions + 1, $0.writes + batch.count) }
            for job in batch { job.answer(nil) }
        } catch {
            if db.isInTransaction { try? db.execute("ROLLBACK") }
            for job in batch { job.answer(error) }
        }
    }
}

/// SQLite ended a write transaction by itself (an I/O error, a full disk): nothing of it was kept.
struct TransactionEnded: Error, CustomStringConvertible {
    var description: String { "the write transaction ended before its commit; nothing was written" }
}

/// Connections that only read, one per concurrent reader, on threads of their own. In WAL mode
/// they read the last commit without waiting for the writer, so a token lookup never queues
/// behind a commit's fsync; a write acknowledged before a read starts is always seen.
final class ReaderPool: @unchecked Sendable {
    /// Idle connections kept for reuse; more are opened when more read at once, then closed.
    static let keep = 8

    private let path: String
    private let idle = Mutex<[UncheckedDatabase]>([])
    private let queue: DispatchQueue

    init(path: String, label: String) {
        self.path = path
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    let connection = try self.take()
                    defer { self.give(connection) }
                    return try body(connection.db)
                })
            }
        }
    }

    private func take() throws -> UncheckedDatabase {
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        let db = try Database(path: path, mode: .readWrite)
        try db.execute("PRAGMA query_only = ON")
        return UncheckedDatabase(db: db)
    }

    private func give(_ connection: UncheckedDatabase) {
        idle.withLock { if $0.count < Self.keep { $0.append(connection) } }
    }
}

/// A connection handed from thread to thread, used by one at a time.
struct UncheckedDatabase: @unchecked Sendable {
    let db: Database
}

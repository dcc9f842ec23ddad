import Dispatch
import Synchronization
import Usage

/// The one connection that writes a database, on a thread of its own (a commit waits for the
/// disk, which must not hold one of Swift's cooperative threads). Writes that arrive while a
/// commit is being made durable are committed together in the next transaction, each inside a
/// savepoint of its own (group commit): one fsync for many writes, and a write that fails
/// takes back only itself. A caller is answered only once its transaction is on disk.
public final class GroupCommitWriter: @unchecked Sendable {
    /// Most writes in one transaction, so that one batch cannot grow without end.
    public static let maxBatch = 256

    // Made on the caller's thread, run and answered on the writer's queue only.
    private struct Job: @unchecked Sendable {
        /// Runs the write inside its savepoint; why it failed (and must be rolled back), if it did.
        let run: (Database) -> (any Error)?
        /// Answers the caller: nil once the batch committed, else why it did not.
        let answer: (Error?) -> Void
        /// When the write was handed to the writer.
        let asked: ContinuousClock.Instant
    }

    /// Touched only on `queue`.
    private let db: Database
    private let queue: DispatchQueue
    private let state = Mutex<(jobs: [Job], draining: Bool)>(([], false))
    private let counts = Mutex<(transactions: Int, writes: Int)>((0, 0))

    /// Writes waiting for the next transaction.
    public var waiting: Int { state.withLock { $0.jobs.count } }
    /// Transactions committed and the writes they carried, for the log and the tests.
    public var committed: (transactions: Int, writes: Int) { counts.withLock { $0 } }
    /// Whether the latest transaction failed because the disk is full; false again once one commits.
    public var outOfSpace: Bool { full.withLock { $0 } }
    private let full = Mutex(false)

    /// Writes in the transaction being made (in use), writes waiting for the next one, and how
    /// long each waited for its transaction to begin.
    public let use: PoolUse
    /// How long each COMMIT took, its flush to disk included: with synchronous=FULL, the disk's
    /// own sync time, which every rating waits for at least once.
    public let commitTimes = DurationCounts()

    /// Copies the log into the database beside the writer; nil: SQLite's own checkpoints, in the COMMIT.
    private let checkpointer: LogCheckpointer?
    /// The log's length after the previous commit, and how often it started again: a pass of the
    /// checkpointer counts only for the log it ran on. Touched only on `queue`.
    private var logFrames = 0
    private var logGeneration = 0

    public init(_ db: Database, label: String, checkpointer: LogCheckpointer? = nil, use: PoolUse? = nil) {
        self.db = db
        self.checkpointer = checkpointer
        self.use = use ?? PoolUse(name: label)
        queue = DispatchQueue(label: label)
        if checkpointer != nil { db.takeOverCheckpoints() }
    }

    /// Runs `body` in a write transaction, alone or with others, and returns once it is durable.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            // Set on the writer's queue before `answer` runs there.
            nonisolated(unsafe) var result: Result<T, any Error> = .failure(CancellationError())
            let job = Job(
                run: { db in
                    result = Result { try body(db) }
                    if case .failure(let error) = result { return error }
                    return nil
                },
                answer: { commitError in
                    if let commitError, case .success = result {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: result)
                    }
                }, asked: use.asked())
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
        for job in batch { use.started(asked: job.asked) }
        defer { for _ in batch { use.finished() } }
        do {
            try retryingWhileBusy { try db.execute("BEGIN IMMEDIATE") }
        } catch {
            noteSpace(error)
            for job in batch { job.answer(error) }
            return
        }
        var ran = 0
        var spaceError: (any Error)?
        for job in batch {
            // An I/O error or a full disk can end the whole transaction; later writes must not
            // then run outside it, each committing on its own while its caller is told it failed.
            guard db.isInTransaction else { break }
            do {
                try db.run("SAVEPOINT write")
            } catch {
                break
            }
            if let error = job.run(db) {
                if (error as? SQLiteError)?.isDiskFull == true { spaceError = error }
                try? db.run("ROLLBACK TO write")
                try? db.run("RELEASE write")
            } else {
                try? db.run("RELEASE write")
            }
            ran += 1
        }
        do {
            // The write that found the disk full is the reason for the others too.
            guard ran == batch.count, db.isInTransaction else { throw spaceError ?? TransactionEnded() }
            let committing = ContinuousClock.now
            try db.execute("COMMIT")
            commitTimes.record(.now - committing)
            counts.withLock { $0 = ($0.transactions + 1, $0.writes + batch.count) }
            full.withLock { $0 = spaceError != nil }
            for job in batch { job.answer(nil) }
            keepLogShort()
        } catch {
            if db.isInTransaction { try? db.execute("ROLLBACK") }
            noteSpace(error)
            for job in batch { job.answer(error) }
        }
    }

    private func noteSpace(_ error: any Error) {
        if (error as? SQLiteError)?.isDiskFull == true { full.withLock { $0 = true } }
    }

    /// After a commit, on the writer's queue: decides who copies the write-ahead log into the
    /// database. Below `start` frames, nobody; then a pass of the checkpointer, beside the
    /// writer; once a pass has left at most `tail` frames behind, the writer copies that rest
    /// itself (a few commits' worth, and one flush), after which the next commit starts the log
    /// again from its beginning. It can only once all of the log is in the database, which a
    /// checkpoint beside steady commits never reaches alone. From `limit` frames on (readers
    /// holding old snapshots, a failing checkpointer) the writer copies everything, as SQLite would.
    private func keepLogShort() {
        guard let checkpointer, let frames = db.logFrames else { return }
        if frames < logFrames { logGeneration += 1 }
        logFrames = frames
        let sizes = checkpointer.sizes
        guard frames >= sizes.start else { return }
        let status = checkpointer.status
        let tailLeft = !status.running && status.last.map { $0.generation == logGeneration && frames - $0.copied <= sizes.tail } == true
        if frames >= sizes.limit || tailLeft {
            if let (log, copied) = try? db.checkpoint() { checkpointer.record(generation: logGeneration, log: log, copied: copied) }
        } else if !status.running {
            checkpointer.start(generation: logGeneration)
        }
    }

    /// How often the log started again from its beginning (for the tests); read on the writer's queue.
    public var logRestarts: Int { queue.sync { logGeneration } }
}

/// A connection of its own, on a thread of its own, that copies the write-ahead log into the
/// database (a passive checkpoint: it waits for nobody, and nobody waits for it) while the writer
/// goes on committing. SQLite's own checkpoint runs inside the COMMIT that takes the log past
/// 1,000 frames: under bench-review's load that was one commit in eleven, 11 ms each, a quarter
/// of the writer's time, and the ratings waiting meanwhile were the slowest hundredth.
/// `GroupCommitWriter` decides when a pass runs; the connection opens with the first pass.
public final class LogCheckpointer: @unchecked Sendable {
    /// Log lengths in frames (pages): a pass starts at `start` (SQLite's own threshold); the
    /// writer copies the rest itself when a pass left at most `tail`, and all of it at `limit`.
    public struct Sizes: Sendable {
        public var start: Int
        public var tail: Int
        public var limit: Int

        public init(start: Int = 1_000, tail: Int = 400, limit: Int = 20_000) {
            self.start = start
            self.tail = tail
            self.limit = limit
        }
    }

    public struct Status: Sendable {
        public var running = false
        /// The latest copy, the writer's own included: the log it ran on (counted by the
        /// writer's restarts), its length and how much of it is in the database.
        public var last: (generation: Int, log: Int, copied: Int)?
        /// Passes that ran here, and those that failed (for the tests).
        public var passes = 0
        public var failures = 0
    }

    public let sizes: Sizes
    private let path: String
    private let queue: DispatchQueue
    private let state = Mutex(Status())
    /// Opened on `queue` by the first pass, used only there.
    private var db: Database?

    public init(path: String, label: String, sizes: Sizes = Sizes()) {
        self.path = path
        self.sizes = sizes
        queue = DispatchQueue(label: label)
    }

    public var status: Status { state.withLock { $0 } }

    func record(generation: Int, log: Int, copied: Int) {
        state.withLock { $0.last = (generation, log, copied) }
    }

    /// Runs one pass beside the writer, unless one is running.
    func start(generation: Int) {
        let start = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        guard start else { return }
        queue.async {
            let result = try? self.pass()
            self.state.withLock { state in
                state.running = false
                state.passes += 1
                // A failed pass leaves the log to the writer, at `limit`.
                if let result { state.last = (generation, result.logFrames, result.copiedFrames) } else { state.failures += 1 }
            }
        }
    }

    private func pass() throws -> (logFrames: Int, copiedFrames: Int) {
        if db == nil {
            let connection = try Database(path: path, mode: .readWrite)
            // A connection finds the log with its first read; before that, a checkpoint sees none.
            _ = try connection.scalar("SELECT count(*) FROM sqlite_schema")
            db = connection
        }
        return try db!.checkpoint()
    }
}

/// SQLite ended a write transaction by itself (an I/O error, a full disk): nothing of it was kept.
struct TransactionEnded: Error, CustomStringConvertible {
    var description: String { "the write transaction ended before its commit; nothing was written" }
}

/// Connections that only read, one per concurrent reader, on threads of their own. In WAL mode
/// they read the last commit without waiting for the writer, so a token lookup never queues
/// behind a commit's fsync; a write acknowledged before a read starts is always seen.
public final class ReaderPool: @unchecked Sendable {
    /// Idle connections kept for reuse; more are opened when more read at once, then closed.
    public static let keep = 8

    private let path: String
    private let idle = Mutex<[UncheckedDatabase]>([])
    private let queue: DispatchQueue
    /// Reads running and waiting for a thread, and how long they waited.
    public let use: PoolUse

    public init(path: String, label: String, use: PoolUse? = nil) {
        self.path = path
        self.use = use ?? PoolUse(name: label)
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let asked = use.asked()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                self.use.started(asked: asked)
                defer { self.use.finished() }
                continuation.resume(
                    with: Result {
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

import Synchronization

/// Counts of durations in fixed buckets, as a Prometheus histogram reports them: how many took at
/// most each bound, their sum and their number. Recorded from any thread; cheap beside the work
/// it measures (one lock, no allocation).
public final class DurationCounts: Sendable {
    /// Upper bounds in seconds, from 0.25 ms (an answer from memory, a free connection) to 2.5 s
    /// (a first clip). The request latencies use them too.
    public static let bounds: [Double] = [0.000_25, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    public struct Snapshot: Sendable, Equatable {
        /// Per bound, how many took at most that long (not cumulative; the last entry counts those
        /// above every bound).
        public var counts: [Int]
        public var sum: Double
        public var count: Int { counts.reduce(0, +) }
    }

    private let state = Mutex(Snapshot(counts: Array(repeating: 0, count: DurationCounts.bounds.count + 1), sum: 0))

    public init() {}

    public func record(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let bucket = Self.bounds.firstIndex(where: { seconds <= $0 }) ?? Self.bounds.count
        state.withLock {
            $0.counts[bucket] += 1
            $0.sum += seconds
        }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }
}

/// How a limited resource is used: work running on it now, work waiting for its turn, and how
/// long each waited. A pool of database connections, a single writer's queue, a speech engine's
/// queue: what an operator reads to tell "the database is slow" from "everything waits for it".
public final class PoolUse: Sendable {
    /// The name metrics show (`learners.writes`, `postgres`, `speech.neural`).
    public let name: String
    public let waits = DurationCounts()
    private let state = Mutex((inUse: 0, waiting: 0))

    public init(name: String) {
        self.name = name
    }

    /// Work asks for its turn; pass the instant to `started(asked:)` when it gets it.
    public func asked() -> ContinuousClock.Instant {
        state.withLock { $0.waiting += 1 }
        return .now
    }

    /// The work that asked at `asked` runs now.
    public func started(asked: ContinuousClock.Instant) {
        state.withLock {
            $0.waiting -= 1
            $0.inUse += 1
        }
        waits.record(.now - asked)
    }

    /// Work that asked and will not run (it failed before its turn).
    public func gaveUp() {
        state.withLock { $0.waiting -= 1 }
    }

    public func finished() {
        state.withLock { $0.inUse -= 1 }
    }

    public var now: (inUse: Int, waiting: Int) { state.withLock { $0 } }
}

import Testing
import Usage

@Suite struct PoolUseTests {
    @Test func countsWorkWaitingThenRunningThenDone() {
        let pool = PoolUse(name: "test")
        let first = pool.asked()
        let second = pool.asked()
        #expect(pool.now == (inUse: 0, waiting: 2))
        pool.started(asked: first)
        #expect(pool.now == (inUse: 1, waiting: 1))
        pool.gaveUp()
        #expect(pool.now == (inUse: 1, waiting: 0))
        pool.finished()
        #expect(pool.now == (inUse: 0, waiting: 0))
        // Only work that started has a wait; the one that gave up is not a wait of zero.
        #expect(pool.waits.snapshot.count == 1)
        _ = second
    }

    @Test func aDurationFallsInTheFirstBucketItFitsAndAboveAllInTheLast() {
        let counts = DurationCounts()
        counts.record(.microseconds(100))
        counts.record(.milliseconds(1)) // on a bound: counted at that bound, as Prometheus's `le`
        counts.record(.milliseconds(3))
        counts.record(.seconds(9))
        let snapshot = counts.snapshot
        let at = { (bound: Double) in snapshot.counts[DurationCounts.bounds.firstIndex(of: bound)!] }
        #expect(at(0.000_25) == 1)
        #expect(at(0.001) == 1)
        #expect(at(0.005) == 1)
        #expect(snapshot.counts.last == 1)
        #expect(snapshot.count == 4)
        #expect(abs(snapshot.sum - 9.0041) < 1e-9)
    }
}

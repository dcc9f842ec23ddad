import Dispatch
import Offloading
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct WorkGateTests {
    /// Counts the bodies running at once and the most seen.
    final class Meter: Sendable {
        let state = Mutex((now: 0, peak: 0, done: 0))
        func enter() {
            state.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
        }
        func leave() {
            state.withLock {
                $0.now -= 1
                $0.done += 1
            }
        }
    }

    @Test func neverRunsMoreThanItsLimitAndRunsEveryAdmittedCaller() async throws {
        let gate = WorkGate(limit: 2, waiting: 100)
        let meter = Meter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await gate.run {
                        meter.enter()
                        // Stays until a second caller is inside too (the gate must let two in), or
                        // none is left to come: on a loaded machine a fixed sleep could end before
                        // the second caller was even scheduled.
                        for _ in 0..<1_000 where !meter.state.withLock({ $0.peak >= 2 || $0.done + $0.now == 12 }) { usleep(10_000) }
                        meter.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        let seen = meter.state.withLock { $0 }
        #expect(seen.done == 12)
        #expect(seen.peak == 2)
        #expect(gate.load.running == 0 && gate.load.queued == 0)
    }

    @Test func refusesAtOnceWhenRunningAndWaitingAreFull() async throws {
        let gate = WorkGate(limit: 1, waiting: 1)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // One caller holds the only place, a second waits: the third is refused.
        let holder = Task {
            try await gate.run {
                started.signal()
                release.wait()
            }
        }
        await Task.detached { started.wait() }.value
        let waiter = Task { try await gate.run { 7 } }
        while gate.load.queued == 0 { await Task.yield() }
        await #expect(throws: GateFull.self) { try await gate.run { 0 } }
        release.signal()
        try await holder.value
        #expect(try await waiter.value == 7)
        // Once free, the gate admits again.
        #expect(try await gate.run { 8 } == 8)
    }

    @Test func aBodyThatThrowsGivesItsPlaceBack() async throws {
        struct Broken: Error {}
        let gate = WorkGate(limit: 1, waiting: 0)
        await #expect(throws: Broken.self) { try await gate.run { throw Broken() } }
        #expect(try await gate.run { "free" } == "free")
    }
}

import Synchronization

/// At most `limit` runs of some costly blocking work at once, and at most `waiting` callers
/// queued behind them; the next caller is refused at once (`GateFull`) instead of queueing.
///
/// Made for password checks: bcrypt at cost 12 is a quarter of a second of one core. Unbounded,
/// a burst of sign-ins (or a guessing client spread over many addresses) would take a thread and
/// a core each and starve every other request; bounded, sign-ins wait their turn or are told to
/// retry, and the rest of the server keeps its cores.
public final class WorkGate: Sendable {
    public let limit: Int
    public let waiting: Int

    private struct State {
        var running = 0
        /// Waiters, resumed with `false` (not refused) when a place passes to them.
        var queue: [CheckedContinuation<Bool, Never>] = []
    }
    private let state = Mutex(State())

    public init(limit: Int, waiting: Int) {
        precondition(limit > 0 && waiting >= 0)
        self.limit = limit
        self.waiting = waiting
    }

    /// Runs `body` on a thread of its own (`BlockingWork`) once a place is free.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await BlockingWork.run(body)
    }

    /// Runs and queued now, for logs and tests.
    public var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queue.count) } }

    private func enter() async throws {
        enum Decision { case run, wait, refuse }
        // The decision and the queueing happen under one lock hold, so a place freed in
        // between cannot be missed; `leave` hands its place straight to the first waiter.
        let refused: Bool = await withCheckedContinuation { (entered: CheckedContinuation<Bool, Never>) in
            let decision: Decision = state.withLock { s in
                if s.running < limit {
                    s.running += 1
                    return .run
                }
                guard s.queue.count < waiting else { return .refuse }
                s.queue.append(entered)
                return .wait
            }
            switch decision {
            case .run: entered.resume(returning: false)
            case .refuse: entered.resume(returning: true)
            case .wait: break
            }
        }
        if refused { throw GateFull(limit: limit, waiting: waiting) }
    }

    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { s in
            if s.queue.isEmpty {
                s.running -= 1
                return nil
            }
            // The place passes to the waiter: `running` stays as it is.
            return s.queue.removeFirst()
        }
        next?.resume(returning: false)
    }
}

/// Every place at a `WorkGate` is taken and its queue is full.
public struct GateFull: Error, CustomStringConvertible, Sendable {
    public let limit: Int
    public let waiting: Int
    public var description: String { "busy: \(limit) running and \(waiting) waiting" }
}

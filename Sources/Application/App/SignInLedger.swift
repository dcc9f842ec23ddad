import Classes
import Synchronization

/// What the picture sign-in guard keeps in memory: the records of names nobody has (so that
/// they lock as a child's do, and the answer tells nothing), and the order in which checks of
/// one class run (one at a time, so that guesses sent at once are each counted).
final class SignInLedger: Sendable {
    /// Names and classes kept at most; beyond it the oldest records that lock nothing go first.
    static let capacity = 10_000

    private struct Tables {
        var names: [String: (state: PictureGuard.State, touched: Double)] = [:]
        var classes: [String: (state: PictureGuard.ClassState, touched: Double)] = [:]
        /// Classes with a check running; the checks waiting behind it.
        var running: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let tables = Mutex(Tables())

    func state(of name: String) -> PictureGuard.State { tables.withLock { $0.names[name]?.state ?? PictureGuard.State() } }

    func classState(of code: String) -> PictureGuard.ClassState {
        tables.withLock { $0.classes[code]?.state ?? PictureGuard.ClassState() }
    }

    func keep(_ state: PictureGuard.State, of name: String, at now: Double) {
        tables.withLock { t in
            t.names[name] = (state, now)
            if t.names.count > Self.capacity {
                let old = t.names.filter { $0.value.state.locked(at: now) == nil }.sorted { $0.value.touched < $1.value.touched }
                for (key, _) in old.prefix(t.names.count - Self.capacity / 2) { t.names[key] = nil }
            }
        }
    }

    func keep(_ state: PictureGuard.ClassState, of code: String, at now: Double) {
        tables.withLock { t in
            t.classes[code] = (state, now)
            if t.classes.count > Self.capacity {
                let old = t.classes.sorted { $0.value.touched < $1.value.touched }
                for (key, _) in old.prefix(t.classes.count - Self.capacity / 2) { t.classes[key] = nil }
            }
        }
    }

    /// Runs `body` when no other check of `key` is running, then lets the next one run.
    func serially<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let runNow = tables.withLock { t -> Bool in
                if t.running[key] == nil {
                    t.running[key] = []
                    return true
                }
                t.running[key]!.append(waiting)
                return false
            }
            if runNow { waiting.resume() }
        }
        defer {
            let next = tables.withLock { t -> CheckedContinuation<Void, Never>? in
                guard var queue = t.running[key], !queue.isEmpty else {
                    t.running[key] = nil
                    return nil
                }
                let first = queue.removeFirst()
                t.running[key] = queue
                return first
            }
            next?.resume()
        }
        return try await body()
    }
}

import Dispatch
import Synchronization

/// Blocking work (decoding a file, a C library that computes for a while) kept off Swift's
/// cooperative threads. Those are as many as the cores: two blocked requests on a two-core
/// server would stop every other request, /healthz included. Work sent here runs on threads
/// of its own, which the system adds while others are blocked.
public enum BlockingWork {
    private static let queue = DispatchQueue(label: "vocab.blocking-work", attributes: .concurrent)

    /// Runs `body` on a thread of its own and waits for it without holding a cooperative thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// The work took longer than it may.
public struct DeadlineExceeded: Error, CustomStringConvertible, Sendable {
    public let seconds: Double
    public var description: String { "took longer than \(seconds) s" }
}

/// Runs `work` and gives up waiting for it after `seconds`: the caller gets `DeadlineExceeded`
/// even if the work never ends (a task group would wait for it), and the work is cancelled.
public func withDeadline<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let race = DeadlineRace(continuation)
        let task = Task {
            do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
        }
        race.startTimer(seconds: seconds, cancelling: task)
    }
}

/// Whichever of the work and the timer ends first resumes the caller, once.
private final class DeadlineRace<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>
    private let timer = Mutex<Task<Void, Never>?>(nil)

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func finish(_ result: Result<T, any Error>) {
        let waiting = continuation.withLock { c in
            defer { c = nil }
            return c
        }
        waiting?.resume(with: result)
        timer.withLock { $0?.cancel() }
    }

    func startTimer(seconds: Double, cancelling work: Task<Void, Never>) {
        let timeout = Task { [self] in
            guard (try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))) != nil else { return }
            finish(.failure(DeadlineExceeded(seconds: seconds)))
            work.cancel()
        }
        timer.withLock { $0 = timeout }
        // The work may have finished before the timer existed.
        if continuation.withLock({ $0 == nil }) { timeout.cancel() }
    }
}

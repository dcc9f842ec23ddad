import Synchronization

/// A part of the app made on first use and then shared: concurrent first callers wait for
/// the one making it. A failure is kept too (a command stops at its first failure; a server
/// makes its parts before it listens).
final class Once<Value: Sendable>: Sendable {
    private let task = Mutex<Task<Value, any Error>?>(nil)

    func value(_ make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = task.withLock { task in
            if let task { return task }
            let made = Task { try await make() }
            task = made
            return made
        }
        return try await task.value
    }
}

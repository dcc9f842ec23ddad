import AudioFile
import Audio
import Offloading
import Vocabulary

/// An entry's clip from the clip store, rendered from the tiers first when it is missing or was
/// made from other inputs. `vocab say` and the server's audio endpoint both come here, so they
/// name, render and reuse clips the same way.
public struct ClipService: Sendable {
    public let store: ClipStore
    public let pronouncer: Pronouncer
    /// Longest a render may take before the caller gets an error (a stuck source must not hold
    /// a request, or a worker, forever).
    public let deadline: Double
    private let flights = RenderFlights()

    public init(store: ClipStore, pronouncer: Pronouncer, deadline: Double = 15) {
        self.store = store
        self.pronouncer = pronouncer
        self.deadline = deadline
    }

    /// The stored clip, and whether it was rendered for this call.
    public func clip(for request: ClipRequest, entry: EntryReference, format: AudioFormat) async throws -> (clip: StoredClip, rendered: Bool) {
        let key = ClipKey(entry: entry, accent: request.accent, format: format)
        let inputs = ClipStore.inputs(of: request)
        if let stored = store.stored(key, inputs: inputs) { return (stored, false) }
        return try await flights.run(key) { [store, pronouncer, deadline] in
            // Another process (or an earlier flight) may have finished it meanwhile.
            if let stored = store.stored(key, inputs: inputs) { return (stored, false) }
            return try await withDeadline(seconds: deadline) {
                let pronunciation = try await pronouncer.pronounce(request)
                let stored = try await BlockingWork.run { try store.save(pronunciation, key: key, word: request.word, inputs: inputs) }
                return (stored, true)
            }
        }
    }
}

/// One render per clip at a time: later requests for a clip being rendered wait for it.
actor RenderFlights {
    typealias Result = (clip: StoredClip, rendered: Bool)
    private var running: [ClipKey: Task<Result, any Error>] = [:]

    func run(_ key: ClipKey, _ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        if let task = running[key] {
            return (try await task.value.clip, false)
        }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}

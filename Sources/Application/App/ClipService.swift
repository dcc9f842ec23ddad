import Audio
import AudioFile
import Offloading
import Synchronization
import Vocabulary

/// An entry's clip from the clip store, rendered from the tiers first when it is missing or was
/// made from other inputs (a recording added, replaced or removed since: see
/// `Pronouncer.inputs`). `vocab say` and the server's audio endpoints both come here, so they
/// name, render and reuse clips the same way.
public struct ClipService: Sendable {
    public let store: ClipStore
    public let pronouncer: Pronouncer
    /// Longest a render may take before the caller gets an error (a stuck source must not hold
    /// a request, or a worker, forever).
    public let deadline: Double
    private let flights = RenderFlights()
    private let space = SpaceState()

    /// Whether the last clip this service tried to store found the disk full (and none stored
    /// since): clips made before are still answered; /healthz says the server is degraded.
    public var outOfSpace: Bool { space.full.withLock { $0 } }

    public init(store: ClipStore, pronouncer: Pronouncer, deadline: Double = 15) {
        self.store = store
        self.pronouncer = pronouncer
        self.deadline = deadline
    }

    /// The stored clip, and whether it was rendered for this call.
    public func clip(for request: ClipRequest, format: AudioFormat) async throws -> (clip: StoredClip, rendered: Bool) {
        // A handful of stat calls: cheap enough to check on every request, so a clip source
        // changed while the server runs is noticed at once.
        let pronouncer = self.pronouncer
        return try await clip(for: request, format: format, inputs: BlockingWork.run { pronouncer.inputs(of: request) })
    }

    /// The same, with the inputs' fingerprint already computed (`pronouncer.inputs(of:)`).
    /// `ahead`: asked for before anyone plays it (a page's clips, fetched as it opens): rendered
    /// in `AheadLane`'s turn, so that a tap always finds a voice free.
    public func clip(
        for request: ClipRequest, format: AudioFormat, inputs: String, ahead: Bool = false
    ) async throws -> (clip: StoredClip, rendered: Bool) {
        let key = request.key(format: format)
        let store = self.store
        // Reading a stored clip's record opens the file: off the cooperative threads.
        if let stored = try await BlockingWork.run({ store.stored(key, inputs: inputs) }) { return (stored, false) }
        return try await flights.run(RenderFlights.Key(clip: key, inputs: inputs), ahead: ahead) { [store, pronouncer, deadline, space] in
            // Another process (or an earlier flight) may have finished it meanwhile.
            if let stored = try await BlockingWork.run({ store.stored(key, inputs: inputs) }) { return (stored, false) }
            return try await withDeadline(seconds: deadline) {
                let pronunciation = try await pronouncer.pronounce(request)
                do {
                    let stored = try await BlockingWork.run { try store.save(pronunciation, key: key, word: request.word, inputs: inputs) }
                    space.full.withLock { $0 = false }
                    return (stored, true)
                } catch AudioError.noSpace(let path) {
                    space.full.withLock { $0 = true }
                    throw AudioError.noSpace(path: path)
                }
            }
        }
    }
}

private final class SpaceState: Sendable {
    let full = Mutex(false)
}

/// One render per clip at a time: later requests for a clip being rendered wait for it.
actor RenderFlights {
    struct Key: Hashable {
        var clip: ClipKey
        var inputs: String
    }
    typealias Result = (clip: StoredClip, rendered: Bool)
    private var running: [Key: Task<Result, any Error>] = [:]
    let lane = AheadLane<Key>()

    func run(_ key: Key, ahead: Bool = false, _ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        if let task = running[key] {
            // Someone is waiting for it now: it need not wait for its turn any more.
            if !ahead { await lane.promote(key) }
            return (try await task.value.clip, false)
        }
        let lane = self.lane
        let task = Task {
            guard ahead else { return try await work() }
            let holdsTurn = await lane.enter(key)
            do {
                let result = try await work()
                if holdsTurn { await lane.leave() }
                return result
            } catch {
                if holdsTurn { await lane.leave() }
                throw error
            }
        }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}

/// Renders asked for ahead take turns, one at a time, so that however many clips a page fetches
/// as it opens, a voice is free for the word a child taps; a tap on a clip still waiting for its
/// turn lets that render go at once, beside the one whose turn it is.
actor AheadLane<Key: Hashable & Sendable> {
    private var turnTaken = false
    private var waiting: [(key: Key, go: CheckedContinuation<Bool, Never>)] = []

    /// Waits for the turn; true when this render holds it (and must `leave`), false when it was
    /// let go without it (`promote`).
    func enter(_ key: Key) async -> Bool {
        guard turnTaken else {
            turnTaken = true
            return true
        }
        return await withCheckedContinuation { waiting.append((key, $0)) }
    }

    /// Hands the turn to the next render waiting for it.
    func leave() {
        if waiting.isEmpty {
            turnTaken = false
        } else {
            waiting.removeFirst().go.resume(returning: true)
        }
    }

    /// Lets a waiting render go now, without the turn.
    func promote(_ key: Key) {
        guard let i = waiting.firstIndex(where: { $0.key == key }) else { return }
        waiting.remove(at: i).go.resume(returning: false)
    }

    /// Renders waiting for their turn.
    var queued: Int { waiting.count }
}

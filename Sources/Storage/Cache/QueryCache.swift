/// What happened when a cached query was asked for.
public enum CacheOutcome: String, Sendable, Codable {
    /// Served from the cache.
    case hit
    /// Not cached yet: computed and stored.
    case miss
    /// Cached, but the store changed since: recomputed and replaced.
    case invalidated
}

public struct CacheEvent: Sendable {
    public let key: String
    public let outcome: CacheOutcome
}

public struct CacheStatistics: Sendable, Codable, Equatable {
    /// Answers served from the cache, where they are counted: in memory (a server), not in the
    /// CLI's file, where counting a hit would be a write per read (nil).
    public var hits: Int?
    public var misses: Int
    /// Lookups that found an entry made stale by a change to the store (each also counts as a miss).
    public var invalidations: Int
    public var entries: Int

    public init(hits: Int? = 0, misses: Int = 0, invalidations: Int = 0, entries: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.invalidations = invalidations
        self.entries = entries
    }

    public var hitRate: Double? { hits.map { $0 + misses == 0 ? 0 : Double($0) / Double($0 + misses) } }
}

/// Where cached results are kept: memory for a long-running server, a file for the CLI,
/// whose process ends after each command.
public protocol CacheStorage: Sendable {
    func entry(for key: String) async throws -> (token: String, payload: [UInt8])?
    func save(_ payload: [UInt8], token: String, for key: String) async throws
    func record(_ outcome: CacheOutcome) async throws
    func statistics() async throws -> CacheStatistics
    func removeAll() async throws
}

/// Query results cached by key (the catalog uses "category|level"), each stamped with the
/// store revision it was computed from; a different revision makes the entry stale.
public actor QueryCache {
    private let storage: any CacheStorage
    private let observer: (@Sendable (CacheEvent) -> Void)?

    public init(storage: any CacheStorage, observer: (@Sendable (CacheEvent) -> Void)? = nil) {
        self.storage = storage
        self.observer = observer
    }

    /// The cached payload for `key` if it was computed at `revision`; otherwise computes,
    /// stores and returns it.
    public func value(
        for key: String, revision: String, compute: @Sendable () async throws -> [UInt8]
    ) async throws -> (payload: [UInt8], outcome: CacheOutcome) {
        let outcome: CacheOutcome
        if let cached = try await storage.entry(for: key) {
            if cached.token == revision {
                try await storage.record(.hit)
                observer?(CacheEvent(key: key, outcome: .hit))
                return (cached.payload, .hit)
            }
            outcome = .invalidated
        } else {
            outcome = .miss
        }
        let payload = try await compute()
        try await storage.save(payload, token: revision, for: key)
        try await storage.record(outcome)
        observer?(CacheEvent(key: key, outcome: outcome))
        return (payload, outcome)
    }

    public func statistics() async throws -> CacheStatistics { try await storage.statistics() }
    public func clear() async throws { try await storage.removeAll() }
}

/// In-memory storage for processes that live long (the HTTP service) and for tests.
public actor MemoryCacheStorage: CacheStorage {
    private var entries: [String: (token: String, payload: [UInt8])] = [:]
    private var stats = CacheStatistics()

    public init() {}

    public func entry(for key: String) -> (token: String, payload: [UInt8])? { entries[key] }
    public func save(_ payload: [UInt8], token: String, for key: String) { entries[key] = (token, payload) }
    public func record(_ outcome: CacheOutcome) {
        switch outcome {
        case .hit: stats.hits = (stats.hits ?? 0) + 1
        case .miss: stats.misses += 1
        case .invalidated:
            stats.misses += 1
            stats.invalidations += 1
        }
    }
    public func statistics() -> CacheStatistics {
        var s = stats
        s.entries = entries.count
        return s
    }
    public func removeAll() { entries.removeAll() }
}

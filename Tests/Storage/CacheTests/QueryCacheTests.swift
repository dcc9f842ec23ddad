import Cache
import Foundation
import Store
import TestSupport
import Testing

final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [CacheOutcome] = []
    func append(_ e: CacheEvent) { lock.withLock { events.append(e.outcome) } }
    var outcomes: [CacheOutcome] { lock.withLock { events } }
}

@Suite("Query cache keyed by (category, level)")
struct QueryCacheTests {
    @Test func secondQueryIsAHitAndChangeInvalidates() async throws {
        let log = EventLog()
        let cache = QueryCache(storage: MemoryCacheStorage(), observer: { log.append($0) })
        let computeCount = Counter()
        let compute: @Sendable () async throws -> [UInt8] = {
            await computeCount.increment()
            return Array("[1]".utf8)
        }

        let first = try await cache.value(for: "animals|starters", revision: "r1", compute: compute)
        let second = try await cache.value(for: "animals|starters", revision: "r1", compute: compute)
        let other = try await cache.value(for: "animals|movers", revision: "r1", compute: compute)
        let changed = try await cache.value(for: "animals|starters", revision: "r2", compute: compute)

        #expect([first.outcome, second.outcome, other.outcome, changed.outcome] == [.miss, .hit, .miss, .invalidated])
        #expect(await computeCount.value == 3)
        #expect(log.outcomes == [.miss, .hit, .miss, .invalidated])
        let stats = try await cache.statistics()
        #expect(stats == CacheStatistics(hits: 1, misses: 3, invalidations: 1, entries: 2))
    }

    @Test func sqliteStorageKeepsEntriesAndCountsAcrossInstances() async throws {
        let dir = try TemporaryDirectory("cache")
        defer { dir.remove() }
        let path = dir.file("cache.sqlite")
        do {
            let cache = QueryCache(storage: try SQLiteCacheStorage(path: path))
            _ = try await cache.value(for: "k", revision: "r1") { Array("payload".utf8) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cache = QueryCache(storage: try SQLiteCacheStorage(path: path))
        let again = try await cache.value(for: "k", revision: "r1") {
            Issue.record("should not recompute")
            return []
        }
        #expect(again.outcome == .hit)
        #expect(String(decoding: again.payload, as: UTF8.self) == "payload")
        // A hit only reads: the file is as it was, with no journal or WAL beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["cache.sqlite"])
        #expect(try await cache.statistics() == CacheStatistics(hits: nil, misses: 1, invalidations: 0, entries: 1))
        try await cache.clear()
        #expect(try await cache.statistics() == CacheStatistics(hits: nil))
    }

    @Test func storeRevisionDrivesInvalidation() async throws {
        let dir = try TemporaryDirectory("cache-store")
        defer { dir.remove() }
        let store = try SQLiteDocumentStore(path: dir.file("s.sqlite"))
        let cache = QueryCache(storage: MemoryCacheStorage())
        try await store.put([Document(id: "a", json: #"{"n":1}"#)], in: "c")
        let compute: @Sendable () async throws -> [UInt8] = { Array(try await store.query(Query("c")).map(\.id).joined(separator: ",").utf8) }

        _ = try await cache.value(for: "c", revision: try await store.revision(), compute: compute)
        #expect(try await cache.value(for: "c", revision: try await store.revision(), compute: compute).outcome == .hit)
        try await store.put([Document(id: "b", json: #"{"n":2}"#)], in: "c")
        let fresh = try await cache.value(for: "c", revision: try await store.revision(), compute: compute)
        #expect(fresh.outcome == .invalidated)
        #expect(String(decoding: fresh.payload, as: UTF8.self) == "a,b")
    }
}

actor Counter {
    var value = 0
    func increment() { value += 1 }
}

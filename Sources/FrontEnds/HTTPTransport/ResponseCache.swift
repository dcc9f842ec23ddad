import Foundation

/// Finished catalog responses by request, shared by all connections. The catalog a server
/// opened never changes under it (a re-index replaces the file, not the open one), so entries
/// stay valid for the life of the process, unless they say otherwise (`freshUntil`: audio,
/// whose sources can change) or the catalog lives in a shared database whose changes
/// `removeAll()` follows; the cache is bounded by entries and bytes and forgets the oldest first.
public final class ResponseCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Representation] = [:]
    private var order: [String] = []
    private var head = 0
    private var bytes = 0
    public let maxEntries: Int
    public let maxBytes: Int

    public init(maxEntries: Int = 4096, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    public subscript(key: String) -> Representation? {
        lock.lock()
        let hit = entries[key]
        lock.unlock()
        if let until = hit?.freshUntil, DispatchTime.now().uptimeNanoseconds > until { return nil }
        return hit
    }

    public func store(_ value: Representation, for key: String) {
        let size = Self.size(value)
        guard size <= maxBytes else { return }
        lock.lock()
        defer { lock.unlock() }
        if let old = entries.updateValue(value, forKey: key) {
            bytes -= Self.size(old)
        } else {
            order.append(key)
        }
        bytes += size
        while entries.count > maxEntries || bytes > maxBytes, head < order.count {
            let oldest = order[head]
            head += 1
            if let removed = entries.removeValue(forKey: oldest) { bytes -= Self.size(removed) }
        }
        if head > 1024, head * 2 > order.count { // compact the queue now and then
            order.removeFirst(head)
            head = 0
        }
    }

    /// The cached value, or computes and keeps it. Two requests racing for a new key may both
    /// compute it; the result is the same.
    public func value(for key: String, compute: () async throws -> Representation) async rethrows -> Representation {
        if let hit = self[key] { return hit }
        let value = try await compute()
        store(value, for: key)
        return value
    }

    /// Forgets every answer: the data under them changed (another instance wrote to the shared
    /// database, or this one lost the notifications that would have said so).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll()
        order.removeAll()
        head = 0
        bytes = 0
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    private static func size(_ r: Representation) -> Int { r.body.readableBytes + (r.gzipped?.readableBytes ?? 0) + 64 }
}

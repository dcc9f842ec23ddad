import Prometheus
import Synchronization
import Usage

/// What `vocab serve --metrics-port` exposes in the Prometheus text format: requests by route
/// template, method and status with their latency, answers served from memory, clips by tier,
/// open connections and refused sign-ins; and, read when scraped, the database's connections and
/// queues and the speech engines' queues (in use, waiting, time waited) and how long commits took.
/// One registry a server, passed to whoever records; nothing global.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let connections: Gauge
    private let refusals: Counter
    private let pools: [PoolUse]
    private let commitTimes: DurationCounts?

    // A registry lookup builds and checks the metric's name and labels each time, and working out
    // a path's route template walks the route table: at tens of thousands of requests a second
    // that cost as much as answering them (bench-serve: half the requests a second). So the
    // handles are kept by their labels, and the templates of the paths seen lately by path (at
    // most `rememberedPaths`, forgotten all at once when full: paths are the client's to choose).
    private struct RequestLabels: Hashable {
        let route: String
        let method: String
        let status: Int
    }
    private struct RequestHandles: Sendable {
        let requests: Counter
        let duration: DurationHistogram
    }
    private let requestHandles = Mutex<[RequestLabels: RequestHandles]>([:])
    private let memoryHandles = Mutex<[String: Counter]>([:])
    private let clipHandles = Mutex<[[String]: Counter]>([:])
    private let templates = Mutex<[String: String]>([:])
    static let rememberedPaths = 4096

    /// Latency buckets: the pools' and commits' bounds, so request, wait and commit times read side
    /// by side on one scale.
    static let buckets: [Duration] = DurationCounts.bounds.map { .nanoseconds(Int64(($0 * 1e9).rounded())) }

    /// - Parameters:
    ///   - pools: the limited resources requests wait for (database connections or queues, speech engines).
    ///   - commitTimes: how long the learners' database took to make each commit durable (SQLite).
    public init(pools: [PoolUse] = [], commitTimes: DurationCounts? = nil) {
        self.pools = pools
        self.commitTimes = commitTimes
        connections = registry.makeGauge(
            descriptor: .init(
                namespace: "vocab", metricName: "http_connections", unitName: "open",
                helpText: "Connections open now."))
        refusals = registry.makeCounter(
            descriptor: .init(
                namespace: "vocab", metricName: "sign_in_refusals", unitName: "total",
                helpText: "Requests refused for bad credentials or too many failures."))
    }

    /// The route template of `path` by `template`, remembered for the paths seen lately.
    public func route(of path: String, _ template: (String) -> String) -> String {
        if let known = templates.withLock({ $0[path] }) { return known }
        let found = template(path)
        templates.withLock { remembered in
            if remembered.count >= Self.rememberedPaths { remembered.removeAll(keepingCapacity: true) }
            remembered[path] = found
        }
        return found
    }

    public func request(route: String, method: String, status: Int, duration: Duration) {
        let handles = Self.kept(RequestLabels(route: route, method: method, status: status), in: requestHandles) {
            RequestHandles(
                requests: registry.makeCounter(
                    descriptor: .init(
                        namespace: "vocab", metricName: "http_requests", unitName: "total",
                        helpText: "Requests answered, by route template, method and status."),
                    labels: [("route", route), ("method", method), ("status", String(status))]),
                duration: registry.makeDurationHistogram(
                    descriptor: .init(
                        namespace: "vocab", metricName: "http_request_duration", unitName: "seconds",
                        helpText: "Time to answer, by route template."),
                    labels: [("route", route)], buckets: Self.buckets))
        }
        handles.requests.increment()
        handles.duration.record(duration)
    }

    /// A repeated request answered from the response cache, on the event loop or in the router.
    public func answeredFromMemory(route: String) {
        Self.kept(route, in: memoryHandles) {
            registry.makeCounter(
                descriptor: .init(
                    namespace: "vocab", metricName: "http_answers_from_memory", unitName: "total",
                    helpText: "Repeated requests answered from the response cache in memory."),
                labels: [("route", route)])
        }.increment()
    }

    public func clip(tier: String, cache: String?) {
        Self.kept([tier, cache ?? "none"], in: clipHandles) {
            registry.makeCounter(
                descriptor: .init(
                    namespace: "vocab", metricName: "clips_served", unitName: "total",
                    helpText: "Pronunciations served, by the tier that made them and whether the clip was on disk."),
                labels: [("tier", tier), ("cache", cache ?? "none")])
        }.increment()
    }

    /// The handle kept under `key`, made by `make` the first time. Two requests that both miss
    /// make the same handle: the registry answers one name and labels with one metric.
    private static func kept<Key: Hashable & Sendable, Handle: Sendable>(_ key: Key, in handles: borrowing Mutex<[Key: Handle]>, make: () -> Handle) -> Handle {
        if let known = handles.withLock({ $0[key] }) { return known }
        let made = make()
        handles.withLock { $0[key] = made }
        return made
    }

    public func connectionOpened() { connections.increment() }
    public func connectionClosed() { connections.decrement() }
    public func signInRefused() { refusals.increment() }

    /// The exposition text for GET /metrics.
    public func text() -> String { registry.emitToString() + usageText() }

    /// What the pools and commits count, in the same format. They are counted by their owners
    /// whether or not metrics are on, so they are read here rather than recorded in the registry.
    private func usageText() -> String {
        var lines: [String] = []
        if !pools.isEmpty {
            let now = pools.map { ($0.name, $0.now) }
            lines.append(
                "# HELP vocab_pool_in_use Work running now, by pool: database connections or queues (learners.reads, learners.writes, postgres) and speech engines (speech.espeak, speech.neural)."
            )
            lines.append("# TYPE vocab_pool_in_use gauge")
            lines += now.map { "vocab_pool_in_use{pool=\"\($0.0)\"} \($0.1.inUse)" }
            lines.append("# HELP vocab_pool_waiting Work waiting for its turn now, by pool.")
            lines.append("# TYPE vocab_pool_waiting gauge")
            lines += now.map { "vocab_pool_waiting{pool=\"\($0.0)\"} \($0.1.waiting)" }
            lines.append("# HELP vocab_pool_wait_seconds Time from asking to starting, by pool.")
            lines.append("# TYPE vocab_pool_wait_seconds histogram")
            for pool in pools { lines += Self.histogram("vocab_pool_wait_seconds", label: "pool=\"\(pool.name)\"", pool.waits.snapshot) }
        }
        if let commitTimes {
            lines.append(
                "# HELP vocab_db_commit_seconds Time each commit of the learners' database took to be on disk (its sync included); writes waiting meanwhile join the next commit."
            )
            lines.append("# TYPE vocab_db_commit_seconds histogram")
            lines += Self.histogram("vocab_db_commit_seconds", label: nil, commitTimes.snapshot)
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// A histogram's lines: cumulative buckets, +Inf, sum and count.
    static func histogram(_ name: String, label: String?, _ counts: DurationCounts.Snapshot) -> [String] {
        let labels = label.map { $0 + "," } ?? ""
        var lines: [String] = []
        var cumulative = 0
        for (bound, count) in zip(DurationCounts.bounds, counts.counts) {
            cumulative += count
            lines.append("\(name)_bucket{\(labels)le=\"\(bound)\"} \(cumulative)")
        }
        lines.append("\(name)_bucket{\(labels)le=\"+Inf\"} \(counts.count)")
        let plain = label.map { "{\($0)}" } ?? ""
        lines.append("\(name)_sum\(plain) \(counts.sum)")
        lines.append("\(name)_count\(plain) \(counts.count)")
        return lines
    }
}

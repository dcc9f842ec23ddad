import Prometheus
import Synchronization

/// What `vocab serve --metrics-port` exposes in the Prometheus text format: requests by route
/// template, method and status with their latency, answers served from memory, clips by tier,
/// open connections and refused sign-ins. One registry a server, passed to whoever records;
/// nothing global.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let connections: Gauge
    private let refusals: Counter

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

    /// Latency buckets from 0.25 ms (answers from memory) to 2.5 s (a first clip).
    static let buckets: [Duration] = [
        .microseconds(250), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500),
    ]

    public init() {
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
        let labels = RequestLabels(route: route, method: method, status: status)
        let handles =
            requestHandles.withLock { $0[labels] }
            ?? {
                let made = RequestHandles(
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
                requestHandles.withLock { $0[labels] = made }
                return made
            }()
        handles.requests.increment()
        handles.duration.record(duration)
    }

    /// A repeated request answered from the response cache, on the event loop or in the router.
    public func answeredFromMemory(route: String) {
        let counter =
            memoryHandles.withLock { $0[route] }
            ?? {
                let made = registry.makeCounter(
                    descriptor: .init(
                        namespace: "vocab", metricName: "http_answers_from_memory", unitName: "total",
                        helpText: "Repeated requests answered from the response cache in memory."),
                    labels: [("route", route)])
                memoryHandles.withLock { $0[route] = made }
                return made
            }()
        counter.increment()
    }

    public func clip(tier: String, cache: String?) {
        let key = [tier, cache ?? "none"]
        let counter =
            clipHandles.withLock { $0[key] }
            ?? {
                let made = registry.makeCounter(
                    descriptor: .init(
                        namespace: "vocab", metricName: "clips_served", unitName: "total",
                        helpText: "Pronunciations served, by the tier that made them and whether the clip was on disk."),
                    labels: [("tier", key[0]), ("cache", key[1])])
                clipHandles.withLock { $0[key] = made }
                return made
            }()
        counter.increment()
    }

    public func connectionOpened() { connections.increment() }
    public func connectionClosed() { connections.decrement() }
    public func signInRefused() { refusals.increment() }

    /// The exposition text for GET /metrics.
    public func text() -> String { registry.emitToString() }
}

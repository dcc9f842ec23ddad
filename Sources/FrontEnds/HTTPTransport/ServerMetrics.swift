import Prometheus

/// What `vocab serve --metrics-port` exposes in the Prometheus text format: requests by route
/// template, method and status with their latency, answers served from memory, clips by tier,
/// open connections and refused sign-ins. One registry a server, passed to whoever records;
/// nothing global.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let connections: Gauge
    private let refusals: Counter

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

    public func request(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "vocab", metricName: "http_requests", unitName: "total",
                helpText: "Requests answered, by route template, method and status."),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "vocab", metricName: "http_request_duration", unitName: "seconds",
                helpText: "Time to answer, by route template."),
            labels: [("route", route)], buckets: Self.buckets
        ).record(duration)
    }

    /// A repeated request answered from the response cache, on the event loop or in the router.
    public func answeredFromMemory(route: String) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "vocab", metricName: "http_answers_from_memory", unitName: "total",
                helpText: "Repeated requests answered from the response cache in memory."),
            labels: [("route", route)]
        ).increment()
    }

    public func clip(tier: String, cache: String?) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "vocab", metricName: "clips_served", unitName: "total",
                helpText: "Pronunciations served, by the tier that made them and whether the clip was on disk."),
            labels: [("tier", tier), ("cache", cache ?? "none")]
        ).increment()
    }

    public func connectionOpened() { connections.increment() }
    public func connectionClosed() { connections.decrement() }
    public func signInRefused() { refusals.increment() }

    /// The exposition text for GET /metrics.
    public func text() -> String { registry.emitToString() }
}

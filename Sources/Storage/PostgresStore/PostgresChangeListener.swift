import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Hears what other instances change: holds one connection of the pool in `LISTEN` on the
/// change channel and hands every payload ("documents:catalog", "learner:7") to `onChange`.
/// Notifications sent while the connection is down are lost, so every (re)connection starts
/// with `onConnect`, where an instance drops what it has cached. Runs as a service beside the
/// HTTP server until graceful shutdown.
public final class PostgresChangeListener: Service, Sendable {
    public let database: PostgresPool
    public let channel: String
    private let onChange: @Sendable (String) -> Void
    private let onConnect: @Sendable () -> Void
    private let state = Mutex<(connected: Bool, connections: Int)>((false, 0))

    public init(
        database: PostgresPool, channel: String = PostgresDocumentStore.channel,
        onChange: @escaping @Sendable (String) -> Void, onConnect: @escaping @Sendable () -> Void
    ) {
        self.database = database
        self.channel = channel
        self.onChange = onChange
        self.onConnect = onConnect
    }

    /// Whether the listening connection is up: the database's state as /healthz reports it.
    public var isConnected: Bool { state.withLock { $0.connected } }
    /// How many times it has connected (tests wait for a reconnection with it).
    public var connections: Int { state.withLock { $0.connections } }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await self.listenOnce()
                } catch {
                    if !Task.isCancelled {
                        self.database.logger.debug("change listener lost its connection", metadata: ["error": "\(String(reflecting: error))"])
                    }
                }
                self.state.withLock { $0.connected = false }
                // A short pause between attempts; the pool adds its own backoff while the server is down.
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    private func listenOnce() async throws {
        let channel = channel
        try await database.client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                // Subscribed: from here on nothing is missed, so what was cached before can go.
                self.state.withLock {
                    $0.connected = true
                    $0.connections += 1
                }
                self.onConnect()
                for try await notification in notifications { self.onChange(notification.payload) }
            }
        }
    }
}

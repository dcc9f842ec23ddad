import Foundation
import SpawnShim
import Synchronization

/// A real PostgreSQL server for the tests: Debian's binaries, a cluster in a temporary folder on a
/// free loopback port, started once per test process by `scripts/pg-test-server` (which also has
/// the CI and benchmark uses) and stopped when the process exits. Each test or suite takes a
/// database of its own, so they never see each other's rows.
///
/// Missing server binaries are an error, not a skip: CI installs them (`scripts/install-deps test`).
public final class TestPostgres: Sendable {
    public let directory: String
    public let port: Int

    /// The process's server, started on first use.
    public static func shared() throws -> TestPostgres { try started.get() }

    private static let started: Result<TestPostgres, any Error> = Result {
        // Clusters left by test processes that were killed before their exit handler ran.
        _ = try? control(["sweep"])
        let server = try startPrivate()
        running.withLock { $0 = server.directory }
        atexit { TestPostgres.stopAtExit() }
        return server
    }

    /// A server of the caller's own, for tests that stop it (others share `shared()`, which
    /// must stay up). `stop()` removes it.
    public static func startPrivate() throws -> TestPostgres {
        let dir = NSTemporaryDirectory() + "vocab-pg-\(getpid())-\(UUID().uuidString.prefix(6))"
        let result = try control(["start", dir, String(getpid())])
        guard result.status == 0, let port = Int(result.output.split(separator: "\n").last ?? "") else {
            throw TestPostgresError("scripts/pg-test-server start failed (exit \(result.status)): \(result.output)")
        }
        return TestPostgres(directory: dir, port: port)
    }

    /// Stops a server from `startPrivate()` and removes its folder.
    public func stop() { _ = try? Self.control(["stop", directory]) }

    /// Runs scripts/pg-test-server and waits for its own exit (the server it leaves running in
    /// the background holds no pipe of ours: output goes to a file). It inherits no descriptor of
    /// this process: the server lives as long as the test run, and a pipe it inherited from a
    /// test that was starting a program at that moment would never reach its end.
    static func control(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = NSTemporaryDirectory() + "vocab-pg-control-\(getpid())-\(UUID().uuidString.prefix(8)).log"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let quoted = ([script] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let ended = try ChildProcess.start("/bin/sh", arguments: ["-c", "\(quoted) >'\(output)' 2>&1 </dev/null"], ownGroup: true).waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (ended.status, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static let running = Mutex<String?>(nil)
    private static var script: String { Repository.root + "/scripts/pg-test-server" }

    private static func stopAtExit() {
        guard let dir = running.withLock({ $0 }) else { return }
        _ = try? control(["stop", dir])
    }

    private init(directory: String, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// The server's maintenance database, for tools that create others.
    public var adminURL: String { url(database: "postgres") }

    public func url(database: String) -> String { "postgres://vocab@127.0.0.1:\(port)/\(database)" }

    /// Creates an empty database with a fresh name and returns its URL.
    public func createDatabase(_ label: String = "test") throws -> String {
        let safe = label.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(20)
        let name = "\(safe)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs SQL with psql against a database of this server and returns its unaligned output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try runProcess(
            "/usr/bin/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", "vocab", "-d", database, "-c", sql,
            ])
        guard result.status == 0 else { throw TestPostgresError("psql failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `psql` for async tests, on a thread of its own (not one of Swift's cooperative threads).
    public func query(_ sql: String, database: String = "postgres") async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try self.psql(sql, database: database) }) }
        }
    }

    /// Stops the server cleanly and keeps its data (fault tests), then `resume()` starts it again on the same port.
    public func pause() throws { try control("pause") }
    public func resume() throws { try control("resume") }

    /// Freezes every process of the server (SIGSTOP), as a hung machine would: connections stay
    /// open and nothing answers. `thaw()` lets them go on.
    public func freeze() throws { try signalAll(SIGSTOP) }
    public func thaw() throws { try signalAll(SIGCONT) }

    private func signalAll(_ signal: Int32) throws {
        guard let text = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
            let postmaster = text.split(separator: "\n").first.flatMap({ Int32($0) })
        else {
            throw TestPostgresError("no postmaster.pid in \(directory)")
        }
        var pids = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { pids.append(pid) }
        }
        for pid in pids { kill(pid, signal) }
    }

    private func control(_ command: String) throws {
        let result = try Self.control([command, directory])
        guard result.status == 0 else { throw TestPostgresError("pg-test-server \(command) failed: \(result.output)") }
    }
}

public struct TestPostgresError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    /// The database name of a postgres:// URL.
    public var postgresDatabaseName: String { String(split(separator: "/").last ?? "") }
}

/// The engines a store runs on: suites that take it as an argument run every test on both.
public enum StorageEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }
}

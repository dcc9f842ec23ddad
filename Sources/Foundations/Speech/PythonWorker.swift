import Dispatch
import Foundation
import Spawning
import Synchronization
import Usage

#if canImport(Glibc)
    import Glibc
#endif

/// One long-lived Python process running a program kept in the binary (`python3 -I -c SOURCE`):
/// requests are a JSON line, perhaps followed by bytes, on a socket (writing to a process that
/// died is an error, not SIGPIPE); answers are a JSON header line, perhaps followed by bytes, on
/// a pipe. The first line it writes says whether it is `ready`. The neural voice and the
/// listener are both such processes.
public final class PythonWorker {
    /// The process cannot go on; errors about one request only are the caller's to throw.
    public struct Broken: Error, CustomStringConvertible { public let description: String }

    /// Who the process is, for messages: "the neural voice", "the listener".
    public let name: String
    private let child: SocketChild
    private var process: ChildProcess { child.process }
    private var output: Int32 { child.output }
    public var pid: Int32 { child.process.pid }
    private var buffer: [UInt8] = []
    private var start = 0
    /// The `ready` line's fields.
    public private(set) var ready: [String: Any] = [:]

    public init(name: String, python: String, source: String, startTimeout: Double) throws {
        self.name = name
        // -I: no user site-packages or PYTHON* variables can change what the program does.
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("PYTHON") { environment[key] = nil }
        environment["OMP_NUM_THREADS"] = "1"
        environment["HF_HUB_OFFLINE"] = "1"
        let child: SocketChild
        do {
            child = try SocketChild.start(python, arguments: ["-I", "-c", source], environment: environment)
        } catch {
            throw SpeechError(description: "cannot run \(name)'s Python (\(python)): \(error)")
        }
        self.child = child
        do {
            let ready = try receiveHeader(timeout: startTimeout, what: "loading \(name)")
            guard ready["ready"] as? Bool == true else {
                throw Broken(description: "\(name) could not start: \(ready["error"] as? String ?? "no reason given")")
            }
            self.ready = ready
        } catch let error as Broken {
            stop()
            throw SpeechError(description: error.description)
        }
    }

    /// Sends one request: its JSON line, then `payload` (whose length the request states).
    public func send(_ request: [String: Any], payload: [UInt8] = []) throws {
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(0x0A)
        var bytes = [UInt8](line)
        bytes += payload
        guard bytes.withUnsafeBytes({ child.send($0) }) else {
            throw Broken(description: "\(name)'s process is gone (\(exitDescription()))")
        }
    }

    /// The next answer's header line.
    public func receiveHeader(timeout: Double, what: String) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Data(buffer[start..<newline])
                start = newline + 1
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw Broken(description: "\(name) answered something other than JSON while \(what)")
                }
                return object
            }
            try fill(until: deadline, what: what)
        }
    }

    /// The `count` bytes that follow a header.
    public func receiveBytes(_ count: Int, timeout: Double, what: String) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.count - start < count { try fill(until: deadline, what: what) }
        let bytes = Array(buffer[start..<start + count])
        start += count
        return bytes
    }

    /// Ends the process: its input closes and it exits after its current request; one that has
    /// not exited a second later is killed.
    public func stop() {
        child.endInput()
        close(child.input)
        close(output)
        if process.isRunning {
            let deadline = Date().addingTimeInterval(1)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning { kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
    }

    private func exitDescription() -> String { process.ended?.description ?? "still running" }

    /// Reads what the process has written so far, waiting at most until `deadline`.
    private func fill(until deadline: Date, what: String) throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Broken(description: "\(name) did not answer in time while \(what)") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 3600) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { throw Broken(description: "\(name) did not answer in time while \(what)") }
            var chunk = [UInt8](repeating: 0, count: 1 << 17)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                process.waitUntilExit()
                throw Broken(description: "\(name)'s process stopped (\(exitDescription())) while \(what)")
            }
            buffer.append(contentsOf: chunk[0..<n])
            return
        }
    }
}

/// Little-endian float32 bytes as samples.
public func floatSamples(_ bytes: [UInt8], count: Int) -> [Float] {
    var samples = [Float](repeating: 0, count: count)
    samples.withUnsafeMutableBytes { target in
        bytes.withUnsafeBytes { source in target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<count * 4])) }
    }
    #if _endian(big)
        samples = samples.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
    #endif
    return samples
}

/// Samples as little-endian float32 bytes.
public func floatBytes(_ samples: [Float]) -> [UInt8] {
    #if _endian(big)
        let samples = samples.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
    #endif
    return samples.withUnsafeBytes { [UInt8]($0) }
}

/// Long-lived worker processes, each a lane with its own serial queue: blocking pipe I/O happens
/// on those queues, never on Swift's cooperative threads. A lane starts its process on first
/// use (or on `warmUp`). A process that dies or answers garbage (`PythonWorker.Broken`) is ended
/// and the request fails with the reason; the next request starts a new one, unless starting
/// failed less than `retryAfter` seconds ago (a broken installation is not retried each time).
public final class WorkerLanes: Sendable {
    private let lanes: [Lane]
    private let next = Atomic<Int>(0)
    /// Requests being answered (at most one a process) and waiting for a process.
    public let use: PoolUse

    /// - Parameter start: makes one process (called on a lane's queue).
    public init(
        name: String, processes: Int, requestTimeout: Double, retryAfter: Double,
        start: @escaping @Sendable () throws -> PythonWorker
    ) {
        use = PoolUse(name: name)
        lanes = (0..<max(1, processes)).map { Lane(label: "vocab.\(name).\($0)", requestTimeout: requestTimeout, retryAfter: retryAfter, start: start) }
    }

    /// Starts every process now, so the first request does not wait for a model to load.
    public func warmUp() async -> SpeechError? {
        var failure: SpeechError?
        for lane in lanes {
            let result: SpeechError? = await withCheckedContinuation { continuation in
                lane.queue.async { continuation.resume(returning: lane.startIfNeeded()) }
            }
            failure = failure ?? result
        }
        return failure
    }

    /// Runs `body` with a lane's process, off the cooperative threads; `body` gets the request
    /// timeout.
    public func run<T: Sendable>(_ body: @escaping @Sendable (PythonWorker, Double) throws -> T) async throws -> T {
        let lane = lanes[next.wrappingAdd(1, ordering: .relaxed).oldValue % lanes.count]
        let asked = use.asked()
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async { [use] in
                use.started(asked: asked)
                defer { use.finished() }
                continuation.resume(with: Result { try lane.run(body) })
            }
        }
    }

    /// The same, on the calling thread: for workers that do nothing else.
    public func runNow<T>(_ body: (PythonWorker, Double) throws -> T) throws -> T {
        let lane = lanes[next.wrappingAdd(1, ordering: .relaxed).oldValue % lanes.count]
        let asked = use.asked()
        return try lane.queue.sync {
            use.started(asked: asked)
            defer { use.finished() }
            return try lane.run(body)
        }
    }

    /// The process ids now running, for tests that end one mid-request.
    public var processIDs: [Int32] { lanes.compactMap { lane in lane.queue.sync { lane.process?.pid } } }

    /// Ends the processes.
    public func stop() {
        for lane in lanes { lane.queue.sync { lane.stop() } }
    }

    deinit { stop() }

    /// One process and everything about it; touched only on `queue`.
    private final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        let requestTimeout: Double
        let retryAfter: Double
        let start: @Sendable () throws -> PythonWorker
        var process: PythonWorker?
        var lastFailure: (error: SpeechError, at: Double)?

        init(label: String, requestTimeout: Double, retryAfter: Double, start: @escaping @Sendable () throws -> PythonWorker) {
            queue = DispatchQueue(label: label)
            self.requestTimeout = requestTimeout
            self.retryAfter = retryAfter
            self.start = start
        }

        func startIfNeeded() -> SpeechError? {
            if process != nil { return nil }
            if let lastFailure, now() - lastFailure.at < retryAfter { return lastFailure.error }
            do {
                process = try start()
                lastFailure = nil
                return nil
            } catch let error as SpeechError {
                lastFailure = (error, now())
                return error
            } catch {
                let failure = SpeechError(description: "could not start: \(error)")
                lastFailure = (failure, now())
                return failure
            }
        }

        func run<T>(_ body: (PythonWorker, Double) throws -> T) throws -> T {
            if let failure = startIfNeeded() { throw failure }
            guard let process else { throw SpeechError(description: "the worker is not running") }
            do {
                return try body(process, requestTimeout)
            } catch let error as PythonWorker.Broken {
                // The process is of no further use (it died, hung or lost its place in the
                // stream): the next request starts another.
                stop()
                throw SpeechError(description: error.description)
            }
        }

        func stop() {
            process?.stop()
            process = nil
        }

        private func now() -> Double { Date().timeIntervalSince1970 }
    }
}

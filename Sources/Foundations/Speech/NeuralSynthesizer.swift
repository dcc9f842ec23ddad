import Dispatch
import Foundation
import Synchronization
import Usage

#if canImport(Glibc)
    import Glibc
#endif

/// The neural voice as installed by `scripts/install-deps`: a Python environment holding the
/// pinned `hibari-tts` package (its American voice "heart", model and lexicons inside the wheel;
/// nothing is downloaded). Only that exact version is used, so that a clip's identity names
/// what made it.
public struct NeuralVoice: Sendable, Equatable {
    public static let package = "hibari-tts"
    public static let version = "0.2.1"
    public static let voiceName = "heart"
    /// Bumped when the worker program changes what it makes from the same text.
    static let protocolVersion = "2"

    /// The Python environment's folder (`neural-voice/`).
    public let directory: String
    public var python: String { directory + "/bin/python3" }

    /// What made a clip, for fingerprints and for people: "hibari-tts 0.2.1 heart".
    public var identity: String { "\(Self.package) \(Self.version) \(Self.voiceName) w\(Self.protocolVersion)" }

    /// The voice installed in `directory`, or why there is none there: a few `stat` calls, no
    /// process started.
    public static func locate(_ directory: String) -> Result<NeuralVoice, SpeechError> {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: directory + "/bin/python3") else {
            return .failure(SpeechError(description: "the neural voice is not installed (no Python environment at \(directory); 'make' installs it)"))
        }
        let lib = directory + "/lib"
        let pythons = ((try? fm.contentsOfDirectory(atPath: lib)) ?? []).filter { $0.hasPrefix("python") }
        let wanted = "hibari_tts-\(version).dist-info"
        for folder in pythons where fm.fileExists(atPath: "\(lib)/\(folder)/site-packages/\(wanted)") {
            return .success(NeuralVoice(directory: directory))
        }
        return .failure(SpeechError(description: "the neural voice's environment at \(directory) has no \(package) \(version) ('make' installs it)"))
    }
}

/// The text has no sounds the voice can make (an emoji, Han characters): the voice works, it has
/// nothing for this text.
public struct NothingToSay: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// What the neural voice made of a text: samples at its own rate, and the phonemes it spoke.
public struct NeuralSpeech: Sendable {
    public var samples: [Float]
    public var sampleRate: Int
    public var phonemes: String
}

/// Speech from the neural voice, in long-lived Python processes (`NeuralWorkerScript`): the
/// model loads once per process (about a second), then a word takes a few milliseconds.
///
/// Each process is a lane with its own serial queue; blocking pipe I/O happens on those queues,
/// never on Swift's cooperative threads. A lane starts its process on first use (or on
/// `warmUp`). A process that dies or answers garbage is ended and the request fails with the
/// reason; the next request starts a new one, unless starting failed less than
/// `retryAfter` seconds ago (a broken installation is not retried for every word).
public final class NeuralSynthesizer: Sendable {
    public let voice: NeuralVoice
    private let lanes: [Lane]
    private let next = Atomic<Int>(0)
    /// Words being spoken (at most one a process) and waiting for a process.
    public let use = PoolUse(name: "speech.neural")

    /// - Parameter processes: how many requests can be spoken at once (one core each).
    public init(voice: NeuralVoice, processes: Int = 1, requestTimeout: Double = 30, retryAfter: Double = 30) {
        self.voice = voice
        lanes = (0..<max(1, processes)).map { Lane(index: $0, voice: voice, requestTimeout: requestTimeout, retryAfter: retryAfter) }
    }

    /// Starts every process now, so the first word does not wait for the model to load.
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

    /// Speaks `text` with the American voice, with British pronunciation when `british`;
    /// `speed` 1 is the voice's own pace (0.75 is slower).
    public func synthesize(_ text: String, british: Bool, speed: Double = 1) async throws -> NeuralSpeech {
        let lane = lanes[next.wrappingAdd(1, ordering: .relaxed).oldValue % lanes.count]
        let asked = use.asked()
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async { [use] in
                use.started(asked: asked)
                defer { use.finished() }
                continuation.resume(with: Result { try lane.speak(text, british: british, speed: speed) })
            }
        }
    }

    /// The same, on the calling thread: for render workers that do nothing else.
    public func synthesizeNow(_ text: String, british: Bool, speed: Double = 1) throws -> NeuralSpeech {
        let lane = lanes[next.wrappingAdd(1, ordering: .relaxed).oldValue % lanes.count]
        let asked = use.asked()
        return try lane.queue.sync {
            use.started(asked: asked)
            defer { use.finished() }
            return try lane.speak(text, british: british, speed: speed)
        }
    }

    /// The process ids now running, for tests that end one mid-batch.
    public var processIDs: [Int32] { lanes.compactMap { lane in lane.queue.sync { lane.process?.pid } } }

    /// Ends the processes (their input closes; each exits after its current word).
    public func stop() {
        for lane in lanes { lane.queue.sync { lane.stop() } }
    }

    deinit { stop() }

    /// One process and everything about it; touched only on `queue`.
    private final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        let voice: NeuralVoice
        let requestTimeout: Double
        let retryAfter: Double
        var process: WorkerProcess?
        var lastFailure: (error: SpeechError, at: Double)?

        init(index: Int, voice: NeuralVoice, requestTimeout: Double, retryAfter: Double) {
            queue = DispatchQueue(label: "vocab.neural.\(index)")
            self.voice = voice
            self.requestTimeout = requestTimeout
            self.retryAfter = retryAfter
        }

        func startIfNeeded() -> SpeechError? {
            if process != nil { return nil }
            if let lastFailure, now() - lastFailure.at < retryAfter { return lastFailure.error }
            do {
                process = try WorkerProcess(voice: voice, startTimeout: max(requestTimeout, 60))
                lastFailure = nil
                return nil
            } catch let error as SpeechError {
                lastFailure = (error, now())
                return error
            } catch {
                let failure = SpeechError(description: "the neural voice could not start: \(error)")
                lastFailure = (failure, now())
                return failure
            }
        }

        func speak(_ text: String, british: Bool, speed: Double) throws -> NeuralSpeech {
            if let failure = startIfNeeded() { throw failure }
            guard let process else { throw SpeechError(description: "the neural voice is not running") }
            do {
                return try process.speak(text, british: british, speed: speed, timeout: requestTimeout)
            } catch let error as WorkerProcess.Broken {
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

/// One Python process running `NeuralWorkerScript`: requests on a socket (writing to a process
/// that died is an error, not SIGPIPE), answers on a pipe.
final class WorkerProcess {
    /// The process cannot go on; `SpeechError`s thrown by `speak` are about one text only.
    struct Broken: Error, CustomStringConvertible { let description: String }

    private let child: SocketChild
    private var process: ChildProcess { child.process }
    private var output: Int32 { child.output }
    var pid: Int32 { child.process.pid }
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var sampleRate = 24000

    init(voice: NeuralVoice, startTimeout: Double) throws {
        // -I: no user site-packages or PYTHON* variables can change what the voice says.
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("PYTHON") { environment[key] = nil }
        environment["OMP_NUM_THREADS"] = "1"
        environment["HF_HUB_OFFLINE"] = "1"
        let child: SocketChild
        do {
            child = try SocketChild.start(voice.python, arguments: ["-I", "-c", NeuralWorkerScript.source], environment: environment)
        } catch {
            throw SpeechError(description: "cannot run the neural voice's Python (\(voice.python)): \(error)")
        }
        self.child = child
        do {
            let ready = try readHeader(timeout: startTimeout, what: "loading the neural voice")
            guard ready["ready"] as? Bool == true else {
                throw Broken(description: "the neural voice could not start: \(ready["error"] as? String ?? "no reason given")")
            }
            sampleRate = ready["rate"] as? Int ?? 24000
        } catch let error as Broken {
            stop()
            throw SpeechError(description: error.description)
        }
    }

    func speak(_ text: String, british: Bool, speed: Double, timeout: Double) throws -> NeuralSpeech {
        let request: [String: Any] = ["text": text, "british": british, "speed": speed]
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(0x0A)
        guard line.withUnsafeBytes({ child.send($0) }) else {
            throw Broken(description: "the neural voice's process is gone (\(exitDescription()))")
        }
        let header = try readHeader(timeout: timeout, what: "speaking '\(text)'")
        guard header["ok"] as? Bool == true else {
            let reason = "the neural voice could not speak '\(text)': \(header["error"] as? String ?? "no reason given")"
            if header["nothing"] as? Bool == true { throw NothingToSay(description: reason) }
            throw SpeechError(description: reason)
        }
        guard let count = header["count"] as? Int, count > 0, count < 24000 * 600 else {
            throw Broken(description: "the neural voice answered without samples")
        }
        let bytes = try readBytes(count * 4, timeout: timeout, what: "speaking '\(text)'")
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBytes { target in
            bytes.withUnsafeBytes { source in target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<count * 4])) }
        }
        #if _endian(big)
            samples = samples.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
        #endif
        return NeuralSpeech(samples: samples, sampleRate: header["rate"] as? Int ?? sampleRate, phonemes: header["phonemes"] as? String ?? "")
    }

    func stop() {
        child.endInput()
        close(child.input)
        close(output)
        if process.isRunning {
            // It exits once its input ends; one that does not within a second is ended.
            let deadline = Date().addingTimeInterval(1)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning { kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
    }

    private func exitDescription() -> String { process.ended?.description ?? "still running" }

    private func readHeader(timeout: Double, what: String) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Data(buffer[start..<newline])
                start = newline + 1
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw Broken(description: "the neural voice answered something other than JSON while \(what)")
                }
                return object
            }
            try fill(until: deadline, what: what)
        }
    }

    private func readBytes(_ count: Int, timeout: Double, what: String) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.count - start < count { try fill(until: deadline, what: what) }
        let bytes = Array(buffer[start..<start + count])
        start += count
        return bytes
    }

    /// Reads what the process has written so far, waiting at most until `deadline`.
    private func fill(until deadline: Date, what: String) throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Broken(description: "the neural voice did not answer in time while \(what)") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 3600) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { throw Broken(description: "the neural voice did not answer in time while \(what)") }
            var chunk = [UInt8](repeating: 0, count: 1 << 17)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                process.waitUntilExit()
                throw Broken(description: "the neural voice's process stopped (\(exitDescription())) while \(what)")
            }
            buffer.append(contentsOf: chunk[0..<n])
            return
        }
    }
}

import FileAccess
import Foundation
import Usage

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
        // Stamped, so that an answer given because the voice was (or was not) there is known to
        // hold only while these files stay as they are (`StampWitness`).
        _ = fileStamp(directory + "/bin/python3")
        _ = fileStamp(directory + "/lib")
        guard fm.isExecutableFile(atPath: directory + "/bin/python3") else {
            return .failure(SpeechError(description: "the neural voice is not installed (no Python environment at \(directory); 'make' installs it)"))
        }
        let lib = directory + "/lib"
        let pythons = ((try? fm.contentsOfDirectory(atPath: lib)) ?? []).filter { $0.hasPrefix("python") }
        let wanted = "hibari_tts-\(version).dist-info"
        for folder in pythons { _ = fileStamp("\(lib)/\(folder)/site-packages") }
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

/// Speech from the neural voice, in long-lived Python processes (`NeuralWorkerScript`, run by
/// `WorkerLanes`): the model loads once per process (about a second), then a word takes a few
/// milliseconds.
public final class NeuralSynthesizer: Sendable {
    public let voice: NeuralVoice
    private let lanes: WorkerLanes
    /// Words being spoken (at most one a process) and waiting for a process.
    public var use: PoolUse { lanes.use }

    /// - Parameter processes: how many requests can be spoken at once (one core each).
    public init(voice: NeuralVoice, processes: Int = 1, requestTimeout: Double = 30, retryAfter: Double = 30) {
        self.voice = voice
        lanes = WorkerLanes(name: "speech.neural", processes: processes, requestTimeout: requestTimeout, retryAfter: retryAfter) {
            try PythonWorker(name: "the neural voice", python: voice.python, source: NeuralWorkerScript.source, startTimeout: max(requestTimeout, 60))
        }
    }

    /// Starts every process now, so the first word does not wait for the model to load.
    public func warmUp() async -> SpeechError? { await lanes.warmUp() }

    /// Speaks `text` with the American voice, with British pronunciation when `british`;
    /// `speed` 1 is the voice's own pace (0.75 is slower).
    public func synthesize(_ text: String, british: Bool, speed: Double = 1) async throws -> NeuralSpeech {
        try await lanes.run { worker, timeout in try Self.speak(text, british: british, speed: speed, worker: worker, timeout: timeout) }
    }

    /// The same, on the calling thread: for render workers that do nothing else.
    public func synthesizeNow(_ text: String, british: Bool, speed: Double = 1) throws -> NeuralSpeech {
        try lanes.runNow { worker, timeout in try Self.speak(text, british: british, speed: speed, worker: worker, timeout: timeout) }
    }

    /// The process ids now running, for tests that end one mid-batch.
    public var processIDs: [Int32] { lanes.processIDs }

    /// Ends the processes (their input closes; each exits after its current word).
    public func stop() { lanes.stop() }

    private static func speak(_ text: String, british: Bool, speed: Double, worker: PythonWorker, timeout: Double) throws -> NeuralSpeech {
        try worker.send(["text": text, "british": british, "speed": speed])
        let header = try worker.receiveHeader(timeout: timeout, what: "speaking '\(text)'")
        guard header["ok"] as? Bool == true else {
            let reason = "the neural voice could not speak '\(text)': \(header["error"] as? String ?? "no reason given")"
            if header["nothing"] as? Bool == true { throw NothingToSay(description: reason) }
            throw SpeechError(description: reason)
        }
        guard let count = header["count"] as? Int, count > 0, count < 24000 * 600 else {
            throw PythonWorker.Broken(description: "the neural voice answered without samples")
        }
        let bytes = try worker.receiveBytes(count * 4, timeout: timeout, what: "speaking '\(text)'")
        let rate = header["rate"] as? Int ?? worker.ready["rate"] as? Int ?? 24000
        return NeuralSpeech(samples: floatSamples(bytes, count: count), sampleRate: rate, phonemes: header["phonemes"] as? String ?? "")
    }
}

import Foundation
import Usage

/// The listener as installed by `scripts/install-deps`: a Python environment holding the pinned
/// `hama` package (a phoneme recogniser with its weights inside the wheel, Apache-2.0; nothing is
/// downloaded), in `listener/` beside the neural voice's, and Whisper tiny.en beside it to weigh
/// words (without it, attempts are judged by their sounds alone).
public struct ListenerModel: Sendable, Equatable {
    public static let package = "hama"
    public static let version = "1.7.0"

    /// The Python environment's folder (`listener/`).
    public let directory: String
    public var python: String { directory + "/bin/python3" }
    public var identity: String { "\(Self.package) \(Self.version)" }

    /// The listener installed in `directory`, or why there is none: a few `stat` calls.
    public static func locate(_ directory: String) -> Result<ListenerModel, SpeechError> {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: directory + "/bin/python3") else {
            return .failure(SpeechError(description: "the listener is not installed (no Python environment at \(directory); 'make' installs it)"))
        }
        let lib = directory + "/lib"
        let pythons = ((try? fm.contentsOfDirectory(atPath: lib)) ?? []).filter { $0.hasPrefix("python") }
        for folder in pythons where fm.fileExists(atPath: "\(lib)/\(folder)/site-packages/hama-\(version).dist-info") {
            return .success(ListenerModel(directory: directory))
        }
        return .failure(SpeechError(description: "the listener's environment at \(directory) has no \(package) \(version) ('make' installs it)"))
    }
}

/// What the recogniser heard: for each 20 ms frame, the log-probability of each of its phones
/// (and of `blank`, CTC's "no new phone here").
public struct PhoneLattice: Sendable {
    public let phones: [String]
    public let blank: Int
    public let frames: Int
    /// `frames` rows of `phones.count` values.
    public let logProbabilities: [Float]
    /// A second recogniser's word for it: for each word asked about, how likely (natural log) it
    /// is that the recording is that word said alone, as Whisper, which knows words rather than
    /// sounds, hears it. Empty where Whisper is not installed or no word was asked about.
    public let wordScores: [String: Double]
    /// Seconds of sound per frame.
    public static let frameSeconds = 0.02

    public init(phones: [String], blank: Int, frames: Int, logProbabilities: [Float], wordScores: [String: Double] = [:]) {
        self.phones = phones
        self.blank = blank
        self.frames = frames
        self.logProbabilities = logProbabilities
        self.wordScores = wordScores
    }

    public func logProbability(frame: Int, phone: Int) -> Float { logProbabilities[frame * phones.count + phone] }

    /// The most likely phone of each frame, repeats and blanks removed: what a listener with no
    /// idea of the word would write down.
    public var bestPath: (phones: [String], logProbability: Double) {
        var heard: [String] = []
        var total = 0.0
        var previous = -1
        for frame in 0..<frames {
            var best = 0
            for phone in 1..<phones.count where logProbability(frame: frame, phone: phone) > logProbability(frame: frame, phone: best) { best = phone }
            total += Double(logProbability(frame: frame, phone: best))
            if best != blank && best != previous && !phones[best].hasPrefix("<") && phones[best] != " " { heard.append(phones[best]) }
            previous = best
        }
        return (heard, total)
    }
}

/// Listening, in long-lived Python processes (`ListenerWorkerScript`): the models load once per
/// process (a second or two), then a word takes about 150 ms of one core.
public final class PhoneListener: Sendable {
    public let model: ListenerModel
    private let lanes: WorkerLanes
    public var use: PoolUse { lanes.use }

    public init(model: ListenerModel, processes: Int = 1, requestTimeout: Double = 10, retryAfter: Double = 30) {
        self.model = model
        lanes = WorkerLanes(name: "listen", processes: processes, requestTimeout: requestTimeout, retryAfter: retryAfter) {
            try PythonWorker(name: "the listener", python: model.python, source: ListenerWorkerScript.source, startTimeout: max(requestTimeout, 60))
        }
    }

    public func warmUp() async -> SpeechError? { await lanes.warmUp() }

    /// What the recognisers make of mono samples at `sampleRate`, with Whisper's score of each
    /// of `words` where it is installed.
    public func listen(_ samples: [Float], sampleRate: Int, words: [String] = []) async throws -> PhoneLattice {
        try await lanes.run { worker, timeout in try Self.listen(samples, sampleRate: sampleRate, words: words, worker: worker, timeout: timeout) }
    }

    /// The same, on the calling thread.
    public func listenNow(_ samples: [Float], sampleRate: Int, words: [String] = []) throws -> PhoneLattice {
        try lanes.runNow { worker, timeout in try Self.listen(samples, sampleRate: sampleRate, words: words, worker: worker, timeout: timeout) }
    }

    public var processIDs: [Int32] { lanes.processIDs }
    public func stop() { lanes.stop() }

    private static func listen(_ samples: [Float], sampleRate: Int, words: [String], worker: PythonWorker, timeout: Double) throws -> PhoneLattice {
        guard let phones = worker.ready["phones"] as? [String], let blank = worker.ready["blank"] as? Int, phones.indices.contains(blank) else {
            throw PythonWorker.Broken(description: "the listener did not say which phones it knows")
        }
        try worker.send(["count": samples.count, "rate": sampleRate, "words": words], payload: floatBytes(samples))
        let header = try worker.receiveHeader(timeout: timeout, what: "listening")
        guard header["ok"] as? Bool == true else {
            throw SpeechError(description: "the listener could not listen: \(header["error"] as? String ?? "no reason given")")
        }
        guard let frames = header["frames"] as? Int, frames >= 0, frames < 100_000, header["phones"] as? Int == phones.count else {
            throw PythonWorker.Broken(description: "the listener answered a lattice of another shape")
        }
        let bytes = try worker.receiveBytes(frames * phones.count * 4, timeout: timeout, what: "listening")
        var wordScores: [String: Double] = [:]
        if let scores = header["scores"] as? [Any], scores.count == words.count {
            for (word, score) in zip(words, scores) {
                if let score = score as? Double, score.isFinite { wordScores[word] = score }
            }
        }
        return PhoneLattice(
            phones: phones, blank: blank, frames: frames, logProbabilities: floatSamples(bytes, count: frames * phones.count), wordScores: wordScores)
    }
}

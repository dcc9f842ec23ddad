import AppCore
import AudioFile
import Catalog
import FSRS
import Foundation
import Learners
import Pronunciation
import Speech

/// What vocab heard when a learner said a word, the same at the terminal and over HTTP.
public struct AttemptBody: Sendable, Codable, Equatable {
    public struct Other: Sendable, Codable, Equatable {
        public var entry: String
        public var word: String
    }

    public var entry: String
    public var word: String
    /// `well_said`, `nearly`, `not_heard` or `silence` (`PronunciationVerdict.Kind`).
    public var verdict: String
    /// The phones the listener wrote down, knowing nothing of the word ("k æ t").
    public var heard: String
    /// How much likelier the word was than the likeliest word it could be mistaken for (natural
    /// log; the sounds' margin and Whisper's added where Whisper is installed; above 0, the word
    /// won).
    public var margin: Double
    /// The word it sounded more like, when it was not clearly the word.
    public var soundedLike: Other?
    /// The word's sound to listen for and try again, when another word won clearly.
    public var sound: String?
    /// Seconds of sound heard.
    public var seconds: Double
    /// Whether the attempt was recorded as a review (Good): only a clear success is, and only for
    /// a signed-in learner. A doubtful attempt never rates a card Again.
    public var reviewed: Bool
}

/// Learners' attempts at saying words: the recording checked and decoded (nothing of it kept),
/// heard by the listener, judged against the words it could be mistaken for, and a clear
/// success counted as a review.
public final class ListeningService: Sendable {
    let catalog: CatalogService
    /// Made on the first attempt: on PostgreSQL the catalog can be read only once the server runs.
    private let judgePart = Once<PronunciationJudge>()
    let listener: @Sendable () -> (PhoneListener?, reason: String?)
    let learning: (@Sendable () async throws -> LearningService)?
    /// Where a learner's recordings are kept, when the operator asked for that.
    let archive: RecordingArchive?

    init(
        catalog: CatalogService, listener: @escaping @Sendable () -> (PhoneListener?, reason: String?),
        learning: (@Sendable () async throws -> LearningService)?, archive: RecordingArchive? = nil
    ) {
        self.catalog = catalog
        self.listener = listener
        self.learning = learning
        self.archive = archive
    }

    /// The judge for the catalog's words (both accents' transcriptions of every entry).
    func judge() async throws -> PronunciationJudge {
        try await judgePart.value { [catalog] in
            PronunciationJudge(
                words: try await catalog.transcriptions().map { SpokenWord(entry: $0.id, word: $0.word, transcriptions: [$0.british, $0.american]) })
        }
    }

    /// Below this loudness (the loudest 20 ms of the recording, as RMS) nobody spoke: −40 dBFS.
    static let silence: Float = 0.01

    /// The formats read: WAV, Ogg (Opus or Vorbis), FLAC, and WebM with Opus (as a browser's
    /// MediaRecorder makes it). A type vocab does not read (MP3, MP4/AAC) is refused by its name.
    static let readTypes = [
        "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave", "audio/ogg", "audio/opus", "audio/flac", "audio/x-flac", "audio/webm",
        "video/webm",
    ]

    /// A recording over the size limit, however it was found to be.
    public static let tooLarge = Failure(
        .bodyTooLarge, "a recording may be at most \(Limits.attemptBytes.upperBound / 1_000_000) MB (\(Int(Limits.attemptSeconds)) seconds of speech).")

    /// Checks a recording as it arrives: its size (before anything is decoded) and its type.
    public static func checkUpload(size: Int, contentType: String?) throws(Failure) {
        guard size > 0 else { throw Failure(.badAudio, "the recording is empty.") }
        guard size <= Limits.attemptBytes.upperBound else { throw tooLarge }
        if let contentType {
            let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard readTypes.contains(type) || type == "application/octet-stream" else {
                throw Failure(.unsupportedAudio, "a recording is read as WAV, Ogg (Opus or Vorbis), FLAC or WebM (Opus), not \(Failure.quote(type)).")
            }
        }
    }

    /// An attempt at the catalog entry `entry`, from a recording's bytes.
    public func attempt(entry: String, audio: [UInt8], contentType: String? = nil, learner: Learner? = nil) async throws -> AttemptBody {
        try Self.checkUpload(size: audio.count, contentType: contentType)
        let judge = try await judge()
        guard let word = judge.word(entry: entry) else {
            throw Failure(.unknownEntry, "the catalog has no entry '\(Failure.quote(entry))'.")
        }
        let pcm = try await Self.decode(audio)
        var body = try await hear(pcm, as: word, judge: judge)
        if let archive, let learner {
            try await archive.keep(audio, learner: learner.id, entry: entry, verdict: body.verdict, at: Date())
        }
        if body.verdict == PronunciationVerdict.Kind.wellSaid.rawValue, let learner, let learning {
            let service = try await learning()
            let saved = try await service.save(entries: [entry], for: learner)
            if let item = saved.first?.item {
                _ = try await service.rate(item: item.id, rating: .good, for: learner, spoken: true)
                body.reviewed = true
            }
        }
        return body
    }

    /// An attempt from a file at the terminal (`vocab listen`).
    public func attempt(entry: String, file: String) async throws -> AttemptBody {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        guard let size else { throw Failure(.missingFile, "cannot read \(Failure.quote(file)).") }
        try Self.checkUpload(size: size, contentType: nil)
        guard let data = FileManager.default.contents(atPath: file) else { throw Failure(.missingFile, "cannot read \(Failure.quote(file)).") }
        return try await attempt(entry: entry, audio: [UInt8](data))
    }

    /// The entry an attempt at a headword is judged as: its first entry (every sense of a
    /// headword is said alike).
    public func entry(for headword: String) async throws -> String {
        guard let first = try await catalog.entries(for: headword).first else {
            throw Failure(.unknownWord, "the catalog has no word '\(Failure.quote(headword))'.")
        }
        return first.id
    }

    /// The words closest to `entry`'s, and every word an attempt at it is judged against (those,
    /// then the words that have it among their closest).
    public func competitors(of entry: String) async throws -> (closest: [SpokenWord], rivals: [SpokenWord]) {
        let judge = try await judge()
        return (judge.competitors(of: entry), judge.rivals(of: entry))
    }

    /// Starts the listener's processes now.
    public func warmUp() async -> String? {
        let (listener, reason) = listener()
        guard let listener else { return reason }
        return await listener.warmUp()?.description
    }

    static func decode(_ audio: [UInt8]) async throws -> PCM {
        try await Task.detached {
            do {
                return try AudioFile.decode(bytes: audio, name: "the recording", maximumSeconds: Limits.attemptSeconds).pcm
            } catch AudioError.implausible(_, let reason) where reason.hasPrefix("longer than") {
                throw Failure(.audioTooLong, "a recording may be at most \(Int(Limits.attemptSeconds)) seconds long.")
            } catch AudioError.noSpace {
                throw Failure(.diskFull, "the disk is full; try again when there is space.")
            } catch let error as AudioError {
                throw Failure(.badAudio, "the recording cannot be read as audio (\(Self.reason(error))).")
            }
        }.value
    }

    static func reason(_ error: AudioError) -> String {
        switch error {
        case .unreadable(_, let reason), .implausible(_, let reason), .writeFailed(_, let reason): reason
        case .noSpace: "no space left"
        }
    }

    /// The verdict on samples.
    func hear(_ pcm: PCM, as word: SpokenWord, judge: PronunciationJudge) async throws -> AttemptBody {
        var body = AttemptBody(
            entry: word.entry, word: word.word, verdict: "", heard: "", margin: 0, seconds: (pcm.duration * 100).rounded() / 100, reviewed: false)
        if Self.loudest(pcm) < Self.silence {
            body.verdict = PronunciationVerdict.Kind.silence.rawValue
            return body
        }
        let (listener, reason) = listener()
        guard let listener else { throw Failure(.listenerUnavailable, "cannot listen here: \(reason ?? "no listener").") }
        let lattice: PhoneLattice
        do {
            lattice = try await listener.listen(pcm.samples, sampleRate: pcm.sampleRate, words: judge.wordsToScore(for: word.entry))
        } catch let error as SpeechError {
            throw Failure(.listenerUnavailable, "could not listen: \(error.description)")
        }
        guard let verdict = judge.judge(lattice, as: word.entry) else {
            throw Failure(.unknownEntry, "the catalog has no entry '\(Failure.quote(word.entry))'.")
        }
        body.verdict = verdict.kind.rawValue
        body.heard = verdict.heard.joined(separator: " ")
        body.margin = (verdict.margin * 10).rounded() / 10
        body.soundedLike = verdict.soundedLike.map { AttemptBody.Other(entry: $0.entry, word: $0.word) }
        body.sound = verdict.sound
        return body
    }

    /// The RMS of the loudest 20 ms.
    static func loudest(_ pcm: PCM) -> Float {
        let frame = max(1, pcm.sampleRate / 50)
        var best: Float = 0
        var start = 0
        while start < pcm.samples.count {
            let end = min(pcm.samples.count, start + frame)
            var sum: Float = 0
            for i in start..<end { sum += pcm.samples[i] * pcm.samples[i] }
            best = max(best, (sum / Float(end - start)).squareRoot())
            start = end
        }
        return best
    }
}

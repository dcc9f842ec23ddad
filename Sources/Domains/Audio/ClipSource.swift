import AudioFile
import ClipProcessing
import Vocabulary

/// The tiers in the order they are tried: a human recording, the older clip collection, the
/// neural voice (English), then espeak-ng, which always works.
public enum Tier: String, Codable, Sendable, CaseIterable {
    case recorded, legacy, neural, tts

    /// Whether the tier makes speech (at any pace) rather than finding a stored clip.
    public var isSynthesis: Bool { self == .neural || self == .tts }

    /// Whose voice a clip of this tier is, said to the listener: a learner of Mandarin hears
    /// only synthesis and should know it is not a person's. Nil for the older collection,
    /// whose speakers nobody recorded.
    public var voice: String? {
        switch self {
        case .recorded: "a person's voice"
        case .legacy: nil
        case .neural, .tts: "a computer voice"
        }
    }
}

public struct ClipRequest: Sendable {
    /// The headword or title, as a person reads it ("ice cream", "行").
    public var word: String
    public var accent: Accent
    /// The word's references from the catalog, if it is a catalog word.
    public var references: AudioReferences?
    /// The entry the clip pronounces, when there is one: imported clips are filed by it.
    public var entry: EntryReference?
    /// Which reading of a Mandarin title ("háng"); nil for English.
    public var reading: String?
    /// What the synthesizer is given, when it is not the word itself (pinyin for Mandarin).
    public var spoken: String?
    /// Whether `reading` is the title's first one, which a clip named by the title alone
    /// (`行.wav`) pronounces.
    public var isFirstReading: Bool
    /// The pace: 1 is the voice's own, 0.75 slower (for children). Only synthesis speaks at
    /// another pace; a recording is played as it was made.
    public var speed: Double

    public init(
        word: String, accent: Accent, references: AudioReferences? = nil, entry: EntryReference? = nil,
        reading: String? = nil, spoken: String? = nil, isFirstReading: Bool = true, speed: Double = 1
    ) {
        self.word = word
        self.accent = accent
        self.references = references
        self.entry = entry
        self.reading = reading
        self.spoken = spoken
        self.isFirstReading = isFirstReading
        self.speed = speed
    }

    /// The key of this request's clip in a store, in a format.
    public func key(format: AudioFormat) -> ClipKey {
        ClipKey(entry: entry ?? EntryReference(.text, word), accent: accent, reading: reading, format: format, speed: speed)
    }
}

/// A clip one tier produced, decoded and checked (and, once the pronouncer has it, trimmed and
/// brought to the loudness target).
public struct ResolvedClip: Sendable {
    public var tier: Tier
    /// Where it came from: a file, a URL (and whether the disk cache answered), or the voice.
    public var source: String
    public var pcm: PCM

    public init(tier: Tier, source: String, pcm: PCM) {
        self.tier = tier
        self.source = source
        self.pcm = pcm
    }
}

/// Why a tier did not serve a request: missing, unreachable, timed out, undecodable.
public struct ClipUnavailable: Error, CustomStringConvertible, Sendable, Equatable {
    public var reason: String
    /// The tier simply has nothing for the entry (nothing imported, referenced or named after
    /// it), as opposed to something it could not use.
    public var isAbsence: Bool
    public init(_ reason: String, absent: Bool = false) {
        self.reason = reason
        isAbsence = absent
    }
    public var description: String { reason }
}

/// One tier of the audio service.
public protocol ClipSource: Sendable {
    var tier: Tier { get }
    /// The clip for the request, or `ClipUnavailable` saying why not.
    func clip(for request: ClipRequest) async throws -> ResolvedClip
    /// What this tier would read for the request, as text that changes when that input changes
    /// (a file added, replaced or removed; a URL's cached copy or remembered failure), without
    /// reading it. A stored clip made from other inputs is stale.
    func fingerprint(for request: ClipRequest) -> String
}

public struct TierSkip: Sendable, Codable, Equatable {
    public var tier: Tier
    public var reason: String
    /// Nothing to try (see `ClipUnavailable.isAbsence`); otherwise a clip was there but broken.
    public var isAbsence: Bool

    public init(tier: Tier, reason: String, isAbsence: Bool = false) {
        self.tier = tier
        self.reason = reason
        self.isAbsence = isAbsence
    }

    enum CodingKeys: String, CodingKey { case tier, reason, broken }

    /// `{"tier", "reason"}`, with `"broken": true` when a clip was there but could not be used.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tier, forKey: .tier)
        try c.encode(reason, forKey: .reason)
        if !isAbsence { try c.encode(true, forKey: .broken) }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tier = try c.decode(Tier.self, forKey: .tier)
        reason = try c.decode(String.self, forKey: .reason)
        isAbsence = !(try c.decodeIfPresent(Bool.self, forKey: .broken) ?? false)
    }
}

/// The answer to "how does this word sound": the clip, which tier served it, and why the
/// tiers before it were skipped.
public struct Pronunciation: Sendable {
    public var request: ClipRequest
    public var clip: ResolvedClip
    public var skipped: [TierSkip]
}

public struct NoClipAvailable: Error, CustomStringConvertible, Sendable {
    public var word: String
    public var skipped: [TierSkip]

    public init(word: String, skipped: [TierSkip]) {
        self.word = word
        self.skipped = skipped
    }

    public var description: String {
        "no clip for '\(word)': " + skipped.map { "\($0.tier.rawValue): \($0.reason)" }.joined(separator: "; ")
    }
}

/// Tries each tier in turn; anything a tier cannot do falls through to the next. Every clip it
/// returns, whichever tier made it, is trimmed to its speech and normalised to one loudness
/// (`ClipProcessor`), so clips of all tiers sound alike in level; a clip that cannot be (silent,
/// or nothing left after trimming) falls through like a missing one.
public struct Pronouncer: Sendable {
    public let sources: [any ClipSource]
    public let processor: ClipProcessor
    /// `processor.settings.signature`, made once: formatting its seven numbers for every clip
    /// was a third of the time of planning a render.
    private let settingsSignature: String

    public init(sources: [any ClipSource], processor: ClipProcessor = ClipProcessor()) {
        self.sources = sources
        self.processor = processor
        settingsSignature = processor.settings.signature
    }

    /// Bumped when what the tiers make from the same inputs changes (the processing, the
    /// synthesizer's settings): every stored clip is then stale.
    public static let version = "clips-2"

    /// - Parameter only: use just this tier (no fall-through), e.g. to audit recordings.
    public func pronounce(_ request: ClipRequest, only: Tier? = nil) async throws -> Pronunciation {
        var skipped: [TierSkip] = []
        for source in sources where only == nil || source.tier == only {
            if request.speed != 1 && !source.tier.isSynthesis {
                skipped.append(TierSkip(tier: source.tier, reason: Self.fixedPace, isAbsence: true))
                continue
            }
            do {
                var clip = try await source.clip(for: request)
                do {
                    clip.pcm = try processor.process(clip.pcm).pcm
                } catch let error as ClipProcessingError {
                    throw ClipUnavailable("\(clip.source): \(error.description)")
                }
                return Pronunciation(request: request, clip: clip, skipped: skipped)
            } catch let unavailable as ClipUnavailable {
                skipped.append(TierSkip(tier: source.tier, reason: unavailable.reason, isAbsence: unavailable.isAbsence))
            } catch {
                skipped.append(TierSkip(tier: source.tier, reason: String(describing: error)))
            }
        }
        throw NoClipAvailable(word: request.word, skipped: skipped)
    }

    static let fixedPace = "stored clips play at the pace they were recorded; a slower pace is spoken by the voices"

    /// The fingerprint of everything a clip for `request` is made from: the tiers' inputs, the
    /// processing target and this version. Stored beside each clip; a clip whose fingerprint
    /// differs from the current one is made again.
    public func inputs(of request: ClipRequest) -> String {
        var parts = [Self.version, settingsSignature]
        for tier in Tier.allCases {
            if request.speed != 1 && !tier.isSynthesis {
                parts.append("\(tier.rawValue)=pace")
            } else if let source = sources.first(where: { $0.tier == tier }) {
                parts.append("\(tier.rawValue)=\(source.fingerprint(for: request))")
            } else if tier == .tts {
                // The same with or without a synthesizer at hand: a process that only plans
                // (the render parent) must agree with the workers that render.
                parts.append("tts=\(SynthesizedClipSource.fingerprint(for: request))")
            }
        }
        return parts.joined(separator: "\u{1F}")
    }
}

extension ClipProcessor.Settings {
    /// What changes the processed samples, as text for fingerprints.
    public var signature: String {
        "lufs=\(targetLUFS),tp=\(peakCeilingDBTP),gate=\(silence.belowLoudestDB)/\(silence.floorDBFS),margins=\(leadingMarginMS)/\(trailingMarginMS),fade=\(fadeMS)"
    }
}

import AudioFile
import Vocabulary

/// The tiers in the order they are tried: a human recording, the older clip collection,
/// then synthesis, which always works.
public enum Tier: String, Codable, Sendable, CaseIterable {
    case recorded, legacy, tts
}

public struct ClipRequest: Sendable {
    public var word: String
    public var accent: Accent
    /// The word's references from the catalog, if it is a catalog word.
    public var references: AudioReferences?

    public init(word: String, accent: Accent, references: AudioReferences? = nil) {
        self.word = word
        self.accent = accent
        self.references = references
    }
}

/// A clip one tier produced, decoded and checked.
public struct ResolvedClip: Sendable {
    public var tier: Tier
    /// Where it came from: a file, a URL (and whether the disk cache answered), or the voice.
    public var source: String
    public var pcm: PCM
}

/// Why a tier did not serve a request: missing, unreachable, timed out, undecodable.
public struct ClipUnavailable: Error, CustomStringConvertible, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// One tier of the audio service.
public protocol ClipSource: Sendable {
    var tier: Tier { get }
    /// The clip for the request, or `ClipUnavailable` saying why not.
    func clip(for request: ClipRequest) async throws -> ResolvedClip
}

public struct TierSkip: Sendable, Codable, Equatable {
    public var tier: Tier
    public var reason: String

    public init(tier: Tier, reason: String) {
        self.tier = tier
        self.reason = reason
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

/// Tries each tier in turn; anything a tier cannot do falls through to the next.
public struct Pronouncer: Sendable {
    public let sources: [any ClipSource]

    public init(sources: [any ClipSource]) { self.sources = sources }

    /// - Parameter only: use just this tier (no fall-through), e.g. to audit recordings.
    public func pronounce(_ request: ClipRequest, only: Tier? = nil) async throws -> Pronunciation {
        var skipped: [TierSkip] = []
        for source in sources where only == nil || source.tier == only {
            do {
                let clip = try await source.clip(for: request)
                return Pronunciation(request: request, clip: clip, skipped: skipped)
            } catch let unavailable as ClipUnavailable {
                skipped.append(TierSkip(tier: source.tier, reason: unavailable.reason))
            } catch {
                skipped.append(TierSkip(tier: source.tier, reason: String(describing: error)))
            }
        }
        throw NoClipAvailable(word: request.word, skipped: skipped)
    }
}

import AudioFile
import FileAccess
import Foundation
import Vocabulary

/// What a tier has for one request, found without the network and without synthesis.
public enum ClipAudit: Sendable, Equatable {
    /// A clip the tier would serve: where from.
    case serves(String)
    /// A URL that has not been fetched yet (and has no remembered failure): the tier will try it.
    case unverified(String)
    /// Something to try that cannot be used: what, and why.
    case broken(String, String)
    /// Nothing to try.
    case absent
}

extension RecordedClipSource {
    /// What this tier would do for `request`, decoding local files fully but fetching nothing.
    public func audit(_ request: ClipRequest) -> ClipAudit {
        if let imported = ImportedClips.path(tier: .recorded, request: request, audioRoot: audioRoot), ContainedFile.isRegular(imported) {
            return check(imported)
        }
        guard let reference = request.references?.recorded else { return .absent }
        if Self.isURL(reference) {
            let cached = cachePath(for: reference)
            if ContainedFile.isRegular(cached), (try? loadClip(cached)) != nil { return .serves("\(reference) (disk cache)") }
            if let failure = rememberedFailure(for: reference) { return .broken(reference, failure.reason) }
            return .unverified(reference)
        }
        do {
            return check(try resolve(reference, under: audioRoot), as: reference)
        } catch {
            return .broken(reference, String(describing: error))
        }
    }
}

extension LegacyClipSource {
    public func audit(_ request: ClipRequest) -> ClipAudit {
        do {
            return check(try locate(request))
        } catch let unavailable as ClipUnavailable {
            return unavailable.isAbsence ? .absent : .broken(request.references?.legacy ?? "legacy/\(request.accent.rawValue)", unavailable.reason)
        } catch {
            return .broken(request.references?.legacy ?? "legacy", String(describing: error))
        }
    }
}

private func check(_ path: String, as name: String? = nil) -> ClipAudit {
    do {
        _ = try loadClip(path)
        return .serves(path)
    } catch {
        return .broken(name ?? path, String(describing: error))
    }
}

/// Which tier serves each entry in each accent, and every clip that is there but broken:
/// `vocab audio status` and `vocab audio check`.
public struct ClipCoverage: Sendable {
    public struct Subject: Sendable {
        public var entry: EntryReference
        public var word: String
        public var categories: [String]
        public var levels: [String]
        public var references: [Accent: AudioReferences]

        public init(entry: EntryReference, word: String, categories: [String], levels: [String], references: [Accent: AudioReferences]) {
            self.entry = entry
            self.word = word
            self.categories = categories
            self.levels = levels
            self.references = references
        }
    }

    public struct Row: Sendable, Codable {
        public var entry: String
        public var word: String
        public var accent: Accent
        public var categories: [String]
        public var levels: [String]
        /// The tier that answers: recorded, legacy, or tts when neither has a usable clip.
        public var tier: Tier
        public var source: String?
        /// A URL the recorded tier will try, not fetched by the survey.
        public var unverified: Bool
    }

    public struct Broken: Sendable, Codable, Equatable {
        public var entry: String
        public var word: String
        public var accent: Accent
        public var tier: Tier
        /// The reference or file as given.
        public var reference: String
        public var reason: String

        public init(entry: String, word: String, accent: Accent, tier: Tier, reference: String, reason: String) {
            self.entry = entry
            self.word = word
            self.accent = accent
            self.tier = tier
            self.reference = reference
            self.reason = reason
        }
    }

    public var rows: [Row] = []
    public var broken: [Broken] = []

    public init() {}

    /// Surveys every subject in every accent.
    /// - Parameter speech: the tier that speaks an entry without a clip (`.neural` where the
    ///   neural voice is installed; it is not started to find out).
    public static func survey(
        _ subjects: [Subject], accents: [Accent], recorded: RecordedClipSource, legacy: LegacyClipSource,
        speech: Tier = .tts
    ) -> ClipCoverage {
        var coverage = ClipCoverage()
        for subject in subjects {
            for accent in accents {
                let request = ClipRequest(word: subject.word, accent: accent, references: subject.references[accent], entry: subject.entry)
                var tier = speech
                var source: String?
                var unverified = false
                for (t, audit) in [(Tier.recorded, recorded.audit(request)), (Tier.legacy, legacy.audit(request))] {
                    switch audit {
                    case .serves(let from):
                        if tier == speech {
                            tier = t
                            source = from
                        }
                    case .unverified(let url):
                        if tier == speech {
                            tier = t
                            source = url
                            unverified = true
                        }
                    case .broken(let reference, let reason):
                        coverage.broken.append(
                            Broken(
                                entry: subject.entry.description, word: subject.word, accent: accent, tier: t,
                                reference: reference, reason: reason))
                    case .absent: break
                    }
                }
                coverage.rows.append(
                    Row(
                        entry: subject.entry.description, word: subject.word, accent: accent, categories: subject.categories,
                        levels: subject.levels, tier: tier, source: source, unverified: unverified))
            }
        }
        return coverage
    }

    /// Counts per tier of the rows that pass `include`.
    public func counts(where include: (Row) -> Bool) -> [Tier: Int] {
        var counts: [Tier: Int] = [.recorded: 0, .legacy: 0, .neural: 0, .tts: 0]
        for row in rows where include(row) { counts[row.tier, default: 0] += 1 }
        return counts
    }
}

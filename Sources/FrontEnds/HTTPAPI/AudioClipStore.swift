import AudioFile
import Audio
import Catalog
import Foundation
import HTTPTypes
import Hummingbird

/// The formats the audio endpoint serves.
public enum ClipFormat: String, CaseIterable, Sendable {
    case wav, ogg

    var audioFormat: AudioFormat { self == .wav ? .wav : .ogg }
    var mediaType: String { self == .wav ? MediaType.wav : MediaType.ogg }
}

enum AudioHeaders {
    /// Which tier produced the clip: recorded, legacy or tts.
    static let tier = HTTPField.Name("X-Vocab-Tier")!
    /// hit: served from the rendered cache (memory or disk); miss: rendered for this request.
    static let cache = HTTPField.Name("X-Vocab-Cache")!
}

/// Rendered clips on disk under `<home>/server-audio/<accent>/`, one file per word, accent and
/// format, named `<slug>-<key hash>.<tier>.<format>` so the tier survives a restart without a
/// second file. Files are written to a temporary name and renamed (AudioFile.write), so a
/// reader never sees half a clip; one render per clip runs at a time in this process.
/// Recently served clips are also kept in memory, bounded in bytes.
final class AudioClipStore: Sendable {
    let directory: String
    let catalog: CatalogService
    let pronouncer: Pronouncer?
    private let memory: ResponseCache
    private let flights = RenderFlights()

    init(directory: String, catalog: CatalogService, pronouncer: Pronouncer?, memoryBytes: Int = 64 << 20) {
        self.directory = directory
        self.catalog = catalog
        self.pronouncer = pronouncer
        self.memory = ResponseCache(maxEntries: 8192, maxBytes: memoryBytes)
    }

    func clip(word: String, accent: Accent, format: ClipFormat) async throws -> Representation {
        let requestKey = "\(word)\u{0}\(accent.rawValue)\u{0}\(format.rawValue)"
        if let hit = memory[requestKey] { return hit }   // stored with X-Vocab-Cache: hit
        guard let entry = try await catalog.lookup(word).first else {
            throw CatalogError.unknownWord(word, suggestions: [])
        }
        let request = ClipRequest(word: entry.word, accent: accent, references: entry.audio(for: accent))
        let base = Self.baseName(for: request, format: format)
        let result: (representation: Representation, cache: String)
        if let found = try cached(base, accent: accent, format: format) {
            result = (found, "hit")
        } else {
            let rendered = try await flights.run(base) { try await self.render(request, base: base, format: format) }
            result = (rendered.representation, rendered.fresh ? "miss" : "hit")
        }
        var served = result.representation
        served.headers[AudioHeaders.cache] = "hit"
        memory.store(served, for: requestKey)
        if result.cache != "hit" { served.headers[AudioHeaders.cache] = result.cache }
        return served
    }

    /// `<slug>-<hash>`: readable, and distinct for every word, accent, format and set of
    /// clip references (a new recording for a word gets a new file). Only ASCII letters,
    /// digits, `_` and `-`, whatever the word.
    static func baseName(for request: ClipRequest, format: ClipFormat) -> String {
        let key = [request.word, request.accent.rawValue, format.rawValue,
                   request.references?.recorded ?? "", request.references?.legacy ?? ""].joined(separator: "\u{0}")
        return "\(ClipNaming.slug(request.word))-\(ETag.hash(Array(key.utf8)))"
    }

    func path(_ base: String, accent: Accent, tier: Tier, format: ClipFormat) -> String {
        "\(directory)/\(accent.rawValue)/\(base).\(tier.rawValue).\(format.rawValue)"
    }

    private func cached(_ base: String, accent: Accent, format: ClipFormat) throws -> Representation? {
        for tier in Tier.allCases {
            let file = path(base, accent: accent, tier: tier, format: format)
            if let data = FileManager.default.contents(atPath: file), !data.isEmpty {
                return representation(Array(data), tier: tier, format: format)
            }
        }
        return nil
    }

    private func render(_ request: ClipRequest, base: String, format: ClipFormat) async throws -> (representation: Representation, fresh: Bool) {
        // Another process (or an earlier flight) may have finished it meanwhile.
        if let found = try cached(base, accent: request.accent, format: format) { return (found, false) }
        guard let pronouncer else { throw AudioUnavailable(word: request.word, reasons: ["no audio tiers configured"]) }
        let pronunciation: Pronunciation
        do {
            pronunciation = try await pronouncer.pronounce(request)
        } catch let none as NoClipAvailable {
            throw AudioUnavailable(word: request.word, reasons: none.skipped.map { "\($0.tier.rawValue): \($0.reason)" })
        }
        let tier = pronunciation.clip.tier
        let file = path(base, accent: request.accent, tier: tier, format: format)
        try AudioFile.write(pronunciation.clip.pcm, to: file, format: format.audioFormat)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw AudioUnavailable(word: request.word, reasons: ["cannot read back \(file)"])
        }
        return (representation(Array(data), tier: tier, format: format), true)
    }

    private func representation(_ bytes: [UInt8], tier: Tier, format: ClipFormat) -> Representation {
        Representation(bytes: bytes, contentType: format.mediaType, cacheControl: CachePolicy.audio, compressible: false,
                       headers: [AudioHeaders.tier: tier.rawValue])
    }
}

/// No tier could produce the clip (e.g. speech synthesis is not installed).
struct AudioUnavailable: Error, CustomStringConvertible {
    var word: String
    var reasons: [String]
    var description: String { "no clip for '\(word)': " + reasons.joined(separator: "; ") }
}

/// One render per clip at a time: later requests for a clip being rendered wait for it.
actor RenderFlights {
    typealias Result = (representation: Representation, fresh: Bool)
    private var running: [String: Task<Result, Error>] = [:]

    func run(_ key: String, _ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        if let task = running[key] {
            return (try await task.value.representation, false)
        }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}

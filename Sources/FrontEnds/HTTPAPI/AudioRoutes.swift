import App
import AppCore
import Audio
import AudioFile
import Catalog
import FileAccess
import HTTPTransport
import HTTPTypes
import Hummingbird
import Offloading

/// GET /v1/audio/{word}?accent=&format=: the word's pronunciation from the first tier that has
/// it, through the same clip store as `vocab say`, with the tier in `X-Vocab-Tier`.
struct AudioRoutes: Sendable {
    let catalog: CatalogService
    /// Nil when the server has no audio tier at all.
    let clips: ClipService?
    let cache: ResponseCache
    /// Recently served clips, bounded in bytes.
    let memory = ResponseCache(maxEntries: 8192, maxBytes: 64 << 20)

    /// Which tier produced the clip: recorded, legacy or tts.
    static let tierHeader = HTTPField.Name("X-Vocab-Tier")!
    /// hit: served from the clip store (disk or memory); miss: rendered for this request.
    static let cacheHeader = HTTPField.Name("X-Vocab-Cache")!
    /// The formats served, with their media types.
    static let mediaTypes: [AudioFormat: String] = [.wav: "audio/wav", .ogg: "audio/ogg", .flac: "audio/flac"]
    /// Larger than any word clip; a bigger file in the store is not served.
    static let maxClipBytes = 16 << 20

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("audio/{word}") { request, context in try await clip(request, context: context) }
        return routes
    }

    func clip(_ request: Request, context: some RequestContext) async throws -> Representation {
        let word = try HTTPInput.pathText(context.parameters["word"], name: "word")
        let query = QueryParameters(request.uri.query)
        let accent = try query["accent"].map { try InputRules.accent($0) } ?? .british
        let format = try query["format"].map(Self.format) ?? .wav
        let memoryKey = "\(word)\u{0}\(accent.rawValue)\u{0}\(format.rawValue)"
        if let hit = memory[memoryKey] { return hit }   // stored with X-Vocab-Cache: hit
        let entry = try await catalog.entries(for: word)[0]
        guard let clips else {
            throw Failure(.unavailable, code: "audio_unavailable", message: "no audio tier is available on this server.")
        }
        let subject = ClipRequest(word: entry.word.word, accent: accent, references: entry.word.audio(for: accent))
        let (stored, rendered) = try await clips.clip(for: subject, entry: entry.reference, format: format)
        let path = stored.path
        let bytes = try await BlockingWork.run { try ContainedFile.read(path, limit: Self.maxClipBytes) }
        var served = Representation(bytes: bytes, contentType: Self.mediaTypes[format] ?? "application/octet-stream",
                                    cacheControl: CachePolicy.audio, compressible: false,
                                    headers: [Self.tierHeader: stored.record.tier.rawValue, Self.cacheHeader: "hit"])
        memory.store(served, for: memoryKey)
        if rendered {
            served.headers[Self.cacheHeader] = "miss"
        } else {
            _ = cache.remember(served, for: request)
        }
        return served
    }

    static func format(_ text: String) throws -> AudioFormat {
        if let format = AudioFormat(rawValue: text.lowercased()) { return format }
        throw Failure(.badInput, code: "bad_format", message: "'\(Failure.quote(text))' is not an audio format; use wav, ogg or flac.",
                      suggestions: InputRules.closestOrAll(text, AudioFormat.allCases.map(\.rawValue)))
    }
}

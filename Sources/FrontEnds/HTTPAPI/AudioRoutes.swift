import App
import AppCore
import Audio
import AudioFile
import Catalog
import Dispatch
import FileAccess
import HTTPTransport
import HTTPTypes
import Hummingbird
import Mandarin
import Offloading

/// GET /v1/audio/{word}?accent=&format=&speed=: a catalog word's pronunciation, and
/// GET /v1/moe/{title}/audio?reading=&format=: a Mandarin title's, in one of its readings. Both
/// come from the first tier that has a usable clip, through the same clip store as `vocab say`,
/// with the tier in `X-Vocab-Tier`.
struct AudioRoutes: Sendable {
    let catalog: CatalogService
    /// The dictionary that gives a Mandarin title its readings (moe.sqlite, or PostgreSQL's copy).
    let dictionary: any MandarinDictionary
    /// Nil when the server has no audio tier at all.
    let clips: ClipService?
    let cache: ResponseCache
    /// How long a repeated request may be answered from memory before the route looks at the
    /// clip's sources again (nanoseconds; `ServerSettings.audioFreshness`).
    let freshness: UInt64
    /// Recently served clips by clip and inputs, bounded in bytes.
    let memory = ResponseCache(maxEntries: 8192, maxBytes: 64 << 20)

    /// Which tier produced the clip: recorded, legacy, neural or tts.
    static let tierHeader = VocabHeader.tier
    /// hit: served from the clip store (disk or memory); miss: rendered for this request.
    static let cacheHeader = VocabHeader.cache
    /// The formats served, with their media types.
    static let mediaTypes: [AudioFormat: String] = [.wav: "audio/wav", .ogg: "audio/ogg", .flac: "audio/flac"]
    /// Larger than any word clip; a bigger file in the store is not served.
    static let maxClipBytes = 16 << 20

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("audio/{word}") { request, context in try await word(request, context: context) }
        routes.get("moe/{title}/audio") { request, context in try await title(request, context: context) }
        return routes
    }

    func word(_ request: Request, context: some RequestContext) async throws -> Representation {
        let word = try HTTPInput.pathText(context.parameters["word"], name: "word")
        let query = QueryParameters(request.uri.query)
        let accent = try query["accent"].map { try InputRules.accent($0) } ?? .british
        let format = try query["format"].map(Self.format) ?? .wav
        let speed = try query["speed"].map { try InputRules.speed($0) } ?? 1
        let entry = try await catalog.entries(for: word)[0]
        let subject = ClipRequest(
            word: entry.word.word, accent: accent, references: entry.word.audio(for: accent), entry: entry.reference,
            speed: speed)
        return try await serve(subject, format: format, request: request)
    }

    func title(_ request: Request, context: some RequestContext) async throws -> Representation {
        let title = try HTTPInput.pathText(context.parameters["title"], name: "title")
        let query = QueryParameters(request.uri.query)
        let reading = try query["reading"].map { try InputRules.text($0, name: "reading", pathSafe: false) }
        let format = try query["format"].map(Self.format) ?? .wav
        let speed = try query["speed"].map { try InputRules.speed($0) } ?? 1
        var subject = try await MandarinClips.request(title: title, reading: reading, dictionary: dictionary)
        subject.speed = speed
        return try await serve(subject, format: format, request: request)
    }

    /// The clip for `subject`: from memory while its inputs (the files each tier would read)
    /// are unchanged, else from the clip store, rendered when missing or stale.
    func serve(_ subject: ClipRequest, format: AudioFormat, request: Request) async throws -> Representation {
        guard let clips else {
            throw Failure(.audioUnavailable, "no audio tier is available on this server.")
        }
        let inputs = try await BlockingWork.run { clips.pronouncer.inputs(of: subject) }
        let memoryKey = "\(subject.key(format: format).relativePath)\u{0}\(inputs)"
        if let hit = memory[memoryKey] { // stored with X-Vocab-Cache: hit
            return remember(hit, for: request)
        }
        let ahead = request.headers[VocabHeader.ahead] == "1"
        let (stored, rendered) = try await clips.clip(for: subject, format: format, inputs: inputs, ahead: ahead)
        let path = stored.path
        let bytes = try await BlockingWork.run { try ContainedFile.read(path, limit: Self.maxClipBytes) }
        var served = Representation(
            bytes: bytes, contentType: Self.mediaTypes[format] ?? "application/octet-stream",
            cacheControl: CachePolicy.audio, compressible: false,
            headers: [Self.tierHeader: stored.record.tier.rawValue, Self.cacheHeader: "hit"])
        memory.store(served, for: memoryKey)
        if rendered {
            served.headers[Self.cacheHeader] = "miss"
            return served
        }
        return remember(served, for: request)
    }

    /// Files the answer under the request's target for a short while (see `freshness`).
    private func remember(_ representation: Representation, for request: Request) -> Representation {
        guard freshness > 0 else { return representation }
        var fresh = representation
        fresh.freshUntil = DispatchTime.now().uptimeNanoseconds + freshness
        return cache.remember(fresh, for: request)
    }

    static func format(_ text: String) throws -> AudioFormat {
        if let format = AudioFormat(rawValue: text.lowercased()) { return format }
        throw Failure(
            .badFormat, "'\(Failure.quote(text))' is not an audio format; use wav, ogg or flac.",
            suggestions: InputRules.closestOrAll(text, AudioFormat.allCases.map(\.rawValue)))
    }

}

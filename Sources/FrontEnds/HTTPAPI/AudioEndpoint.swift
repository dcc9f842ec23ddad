import Hummingbird

/// GET /v1/audio/{word}?accent=british|american&format=wav|ogg: the word's pronunciation from
/// the first tier that has it, with the tier in `X-Vocab-Tier`.
struct AudioEndpoint: Sendable {
    let store: AudioClipStore
    let cache: ResponseCache

    func clip(_ request: Request, context: some RequestContext) async throws -> Representation {
        let word = try InputRules.pathText(context.parameters["word"], name: "word")
        let query = QueryParameters(request.uri.query)
        let accent = try InputRules.accent(query["accent"])
        let format = try InputRules.audioFormat(query["format"])
        let clip = try await store.clip(word: word, accent: accent, format: format)
        if clip.headers[AudioHeaders.cache] == "hit" { _ = cache.remember(clip, for: request) }
        return clip
    }
}

import AudioFile
import Speech

/// Tier 3: espeak-ng, in process. It can say anything, so it is the tier that always works.
/// Mandarin is spoken from the reading's pinyin (`request.spoken`), English from the word.
public struct SynthesizedClipSource: ClipSource {
    public let tier = Tier.tts
    public let synthesizer: EspeakSynthesizer

    public init(synthesizer: EspeakSynthesizer) { self.synthesizer = synthesizer }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        let voice = request.accent.voice
        do {
            let (samples, rate) = try await synthesizer.synthesize(request.spoken ?? request.word, voice: voice, speed: request.speed)
            return ResolvedClip(tier: tier, source: "espeak-ng \(voice)", pcm: PCM(samples: samples, sampleRate: rate))
        } catch let error as SpeechError {
            throw ClipUnavailable(error.description)
        }
    }

    public func fingerprint(for request: ClipRequest) -> String { Self.fingerprint(for: request) }

    /// The voice and what it is given; the words themselves are in the clip's key.
    public static func fingerprint(for request: ClipRequest) -> String {
        // At the default pace the fingerprint is what it was before paces existed, so clips
        // rendered then stay fresh.
        let pace = request.speed == 1 ? "" : "@\(ClipKey.speedLabel(request.speed))"
        return "espeak-ng \(request.accent.voice)+\(SteadyVoiceData.variant)\(pace):\(request.spoken ?? request.word)"
    }
}

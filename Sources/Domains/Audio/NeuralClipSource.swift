import AudioFile
import ClipProcessing
import Speech
import Vocabulary

/// Tier 3: the neural voice (hibari's American voice "heart"), for English. British words are
/// spoken with hibari's British lexicon by the same American voice, and labelled so wherever a
/// tier is shown: there is no British neural voice that installs without a download. Mandarin
/// is left to espeak-ng's pinyin voice.
public struct NeuralClipSource: ClipSource {
    public let tier = Tier.neural
    public let synthesizer: NeuralSynthesizer

    public init(synthesizer: NeuralSynthesizer) { self.synthesizer = synthesizer }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        guard request.accent.isEnglish else {
            throw ClipUnavailable("the neural voice speaks English; Mandarin is spoken from pinyin by espeak-ng", absent: true)
        }
        do {
            // A slower pace is the voice's own clip stretched in time (TimeStretch says why).
            let speech = try await synthesizer.synthesize(request.spoken ?? request.word, british: request.accent == .british)
            let pcm = TimeStretch.stretch(PCM(samples: speech.samples, sampleRate: speech.sampleRate), speed: request.speed)
            return ResolvedClip(tier: tier, source: Self.label(request.accent), pcm: pcm)
        } catch let error as NothingToSay {
            throw ClipUnavailable(error.description, absent: true)
        } catch let error as SpeechError {
            throw ClipUnavailable(error.description)
        }
    }

    /// What a person is told made the clip: the engine, and honestly which voice and pronunciation.
    public static func label(_ accent: Accent) -> String {
        let engine = "\(NeuralVoice.package) \(NeuralVoice.version) \(NeuralVoice.voiceName)"
        return accent == .british ? "\(engine) (neural, American voice, British pronunciation)" : "\(engine) (neural, American voice)"
    }

    public func fingerprint(for request: ClipRequest) -> String {
        guard request.accent.isEnglish else { return "english-only" }
        // A slower clip is the voice's own stretched in time by a phase vocoder (not the voice
        // asked to slow down, nor WSOLA, as before): its inputs say so, so clips made the old way
        // are made again.
        let pace = ClipKey.speedLabel(request.speed) + (request.speed == 1 ? "" : " stretched pv")
        return "\(synthesizer.voice.identity) \(request.accent.rawValue)@\(pace):\(request.spoken ?? request.word)"
    }
}

/// A tier that cannot serve in this process (its engine is not installed or switched off): it
/// is skipped with the reason, as a tier with nothing for the entry is.
public struct UnavailableClipSource: ClipSource {
    public let tier: Tier
    public let reason: String

    public init(tier: Tier, reason: String) {
        self.tier = tier
        self.reason = reason
    }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip { throw ClipUnavailable(reason, absent: true) }

    /// Why there is no clip is part of the inputs: a clip made while the voice was switched off is
    /// not answered, as made before, for a call that finds it not installed (the reason is told).
    public func fingerprint(for request: ClipRequest) -> String { "none (\(reason))" }
}

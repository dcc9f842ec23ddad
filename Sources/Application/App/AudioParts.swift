import AppCore
import Audio
import Catalog
import FileAccess
import Foundation
import HTTPFetch
import Speech
import Synchronization
import Usage
import Vocabulary

/// The audio side of the running system: the clip tiers in order, the store of rendered clips,
/// and the two synthesizers, each made on first use (libespeak-ng keeps one synthesizer in
/// global state, so a process has one; the neural voice's Python processes start on the first
/// word or `warmUpNeuralVoice`). Part of `VocabApp`, made only by it.
public final class AudioParts: Sendable {
    let environment: VocabEnvironment
    private let speech = Mutex<Made<EspeakSynthesizer>>(.notYet)
    private let neural = Mutex<Made<NeuralSynthesizer>>(.notYet)
    private let listening = Mutex<Made<PhoneListener>>(.notYet)
    /// How many voice processes the neural voice may run, decided by who uses the app.
    private let voiceProcesses: Int

    private enum Made<T: Sendable>: Sendable {
        case notYet
        case ready(T)
        case unavailable(String)

        var value: (T?, reason: String?) {
            switch self {
            case .ready(let s): (s, nil)
            case .unavailable(let reason): (nil, reason)
            case .notYet: (nil, "not started")
            }
        }
    }

    init(environment: VocabEnvironment, voiceProcesses: Int) {
        self.environment = environment
        self.voiceProcesses = voiceProcesses
    }

    /// How many voice processes a server runs: one per core, at most four (each holds the model,
    /// about 100 MB; a word takes milliseconds, so more rarely help).
    public static var serverVoiceProcesses: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// The process's espeak-ng synthesizer, or why libespeak-ng cannot be loaded.
    public func synthesizer() -> (EspeakSynthesizer?, reason: String?) {
        speech.withLock { state in
            if case .notYet = state {
                do { state = .ready(try EspeakSynthesizer(dataDirectory: environment.home.speechDirectory)) } catch {
                    state = .unavailable(String(describing: error))
                }
            }
            return state.value
        }
    }

    /// The process's neural voice, or why there is none: switched off, not installed. Made
    /// without starting anything.
    public func neuralSynthesizer() -> (NeuralSynthesizer?, reason: String?) {
        neural.withLock { state in
            Self.locateOnce(&state, in: environment.neuralVoiceDirectory, off: "the neural voice is switched off (VOCAB_NEURAL_VOICE=off)") {
                NeuralVoice.locate($0).map { NeuralSynthesizer(voice: $0, processes: voiceProcesses) }
            }
        }
    }

    /// The process's listener (the phoneme recogniser learners' attempts are heard with), or why
    /// there is none. Made without starting anything.
    public func listener() -> (PhoneListener?, reason: String?) {
        listening.withLock { state in
            Self.locateOnce(&state, in: environment.listenerDirectory, off: "the listener is switched off (VOCAB_LISTENER=off)") {
                ListenerModel.locate($0).map { PhoneListener(model: $0, processes: voiceProcesses) }
            }
        }
    }

    /// A part made from a Python environment of vocab's own, on first use: from `directory`
    /// (nil: switched off, said by `off`), or why it is not there.
    private static func locateOnce<T: Sendable>(
        _ state: inout Made<T>, in directory: String?, off: String, _ make: (String) -> Result<T, SpeechError>
    ) -> (T?, reason: String?) {
        if case .notYet = state {
            if let directory {
                switch make(directory) {
                case .success(let part): state = .ready(part)
                case .failure(let error): state = .unavailable(error.description)
                }
            } else {
                state = .unavailable(off)
            }
        }
        return state.value
    }

    /// The neural voice's processes, loaded now so that no request waits for the model. Nil
    /// when they started, else why they could not.
    public func warmUpNeuralVoice() async -> String? {
        let (synthesizer, reason) = neuralSynthesizer()
        guard let synthesizer else { return reason }
        return await synthesizer.warmUp()?.description
    }

    /// The synthesizers' queues, for metrics: only those already made.
    public var speechPools: [PoolUse] {
        let espeak = speech.withLock { $0.value.0?.use }
        let voice = neural.withLock { $0.value.0?.use }
        let listen = listening.withLock { $0.value.0?.use }
        return [espeak, voice, listen].compactMap { $0 }
    }

    /// The tiers in order: recorded, legacy, the neural voice, espeak-ng. Without libespeak-ng the
    /// others still serve, and `speechUnavailable` says why espeak-ng does not; without the
    /// neural voice its tier is skipped with the reason.
    public func pronouncer(audioRoot: String? = nil) -> (pronouncer: Pronouncer, speechUnavailable: String?) {
        var sources = localSources(audioRoot: audioRoot) + [neuralSource()]
        let (synthesizer, reason) = synthesizer()
        if let synthesizer { sources.append(SynthesizedClipSource(synthesizer: synthesizer)) }
        return (Pronouncer(sources: sources), reason)
    }

    /// Every tier but espeak-ng's, whose fingerprint needs no synthesizer: enough to fingerprint
    /// clips (planning a render) or to survey them. The neural voice's processes are not started.
    public func planner(audioRoot: String? = nil) -> Pronouncer {
        Pronouncer(sources: localSources(audioRoot: audioRoot) + [neuralSource()])
    }

    /// Clips as `say`, the server and the Anki export get them: from the store, else made by
    /// the tiers and kept.
    public func clips() -> (service: ClipService, speechUnavailable: String?) {
        let (pronouncer, reason) = pronouncer()
        return (ClipService(store: clipStore, pronouncer: pronouncer), reason)
    }

    private func neuralSource() -> any ClipSource {
        let (synthesizer, reason) = neuralSynthesizer()
        if let synthesizer { return NeuralClipSource(synthesizer: synthesizer) }
        return UnavailableClipSource(tier: .neural, reason: reason ?? "unavailable")
    }

    public func recordedSource(audioRoot: String? = nil) -> RecordedClipSource {
        RecordedClipSource(audioRoot: audioRoot ?? environment.audioDirectory, cacheDirectory: environment.home.remoteClipCache, http: CurlHTTPClient())
    }

    public func legacySource(audioRoot: String? = nil) -> LegacyClipSource {
        LegacyClipSource(audioRoot: audioRoot ?? environment.audioDirectory)
    }

    private func localSources(audioRoot: String?) -> [any ClipSource] {
        // One look for the folder serves both tiers: each read of `audioDirectory` looks again.
        let root = audioRoot ?? environment.audioDirectory
        return [recordedSource(audioRoot: root), legacySource(audioRoot: root)]
    }

    /// Rendered clips of `say` and the server, by entry identity.
    public var clipStore: ClipStore { ClipStore(root: environment.home.clipsDirectory) }

    /// The folder of recorded and legacy clips (`Audio/`).
    public var audioRoot: String { environment.audioDirectory }

    /// What to pronounce for a word in an English accent: its catalog entry when it has one
    /// (with the entry's clip references for the accent), else the text itself.
    public func subject(_ word: String, accent: Accent, catalog: CatalogService) async -> (request: ClipRequest, inCatalog: Bool) {
        if let hit = try? await catalog.entries(for: word).first {
            return (ClipRequest(word: hit.word.word, accent: accent, references: hit.word.audio(for: accent), entry: hit.reference), true)
        }
        return (ClipRequest(word: word, accent: accent, entry: EntryReference(.text, word)), false)
    }
}

import CEspeakNG
import EspeakShim
import Dispatch

public struct SpeechError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Text to speech with libespeak-ng, in process.
///
/// libespeak-ng keeps one synthesizer in global state, so every call in a process must be
/// serialised, whoever makes it: all instances share one serial queue and one engine, which is
/// started once. That is also why batch rendering runs worker processes rather than threads.
/// Synthesis runs on that queue, never on Swift's cooperative threads, so a long synthesis
/// does not hold up other work.
public final class EspeakSynthesizer: Sendable {
    public let sampleRate: Int

    /// The engine shared by every instance in the process: started once, then only used on `queue`.
    private static let engine: Result<Int, SpeechError> = start()
    private static let queue = DispatchQueue(label: "vocab.espeak")
    nonisolated(unsafe) private static var currentVoice: String?   // only touched on `queue`

    public init() throws {
        sampleRate = try Self.engine.get()
    }

    private static func start() -> Result<Int, SpeechError> {
        guard vocab_espeak_available() != 0 else {
            return .failure(SpeechError(description: "cannot load libespeak-ng: " + String(cString: vocab_espeak_load_error())))
        }
        let rate = vocab_espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else { return .failure(SpeechError(description: "espeak-ng could not start (is espeak-ng-data installed?)")) }
        vocab_espeak_SetSynthCallback { samples, count, events in
            // The buffer to append to travels in user_data of the call's events.
            guard let events, let user = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SampleSink>.fromOpaque(user).takeUnretainedValue()
            if let samples, count > 0 {
                sink.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            }
            return 0
        }
        return .success(Int(rate))
    }

    final class SampleSink { var samples: [Int16] = [] }

    /// Speaks `text` with an espeak-ng voice ("en-gb", "en-us") into mono samples.
    public func synthesize(_ text: String, voice: String) async throws -> (samples: [Float], sampleRate: Int) {
        let rate = sampleRate
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                continuation.resume(with: Result { (try Self.speak(text, voice: voice), rate) })
            }
        }
    }

    /// Runs on `queue` only.
    private static func speak(_ text: String, voice: String) throws -> [Float] {
        if currentVoice != voice {
            // Voices are looked up by language ("en-gb"), as the espeak-ng program's -v does;
            // SetVoiceByName only knows file names such as "gmw/en".
            let status = voice.withCString { language -> espeak_ERROR in
                var properties = espeak_VOICE()
                properties.languages = language
                return vocab_espeak_SetVoiceByProperties(&properties)
            }
            guard status == EE_OK else { throw SpeechError(description: "espeak-ng has no voice for '\(voice)'") }
            currentVoice = voice
        }
        let sink = SampleSink()
        let user = Unmanaged.passRetained(sink)
        defer { user.release() }
        let bytes = Array(text.utf8CString)
        let result = bytes.withUnsafeBufferPointer { buffer in
            vocab_espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, user.toOpaque())
        }
        guard result == EE_OK else { throw SpeechError(description: "espeak-ng failed to speak '\(text)' (error \(result.rawValue))") }
        guard !sink.samples.isEmpty else { throw SpeechError(description: "espeak-ng produced no audio for '\(text)'") }
        return trimSilence(sink.samples).map { Float($0) / 32768 }
    }

    /// espeak-ng pads with silence; a pronunciation clip should start when the word does.
    static func trimSilence(_ samples: [Int16], threshold: Int16 = 200, margin: Int = 441) -> [Int16] {
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > threshold }),
              let last = samples.lastIndex(where: { abs(Int32($0)) > threshold }) else { return samples }
        return Array(samples[max(0, first - margin)...min(samples.count - 1, last + margin)])
    }
}

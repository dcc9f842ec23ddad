import CEspeakNG
import Dispatch
import EspeakShim
import FileAccess
import Foundation
import Synchronization
import Usage

public struct SpeechError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Text to speech with libespeak-ng, in process.
///
/// libespeak-ng keeps one synthesizer in global state, so every call in a process must be
/// serialised, whoever makes it: all instances share one serial queue and one engine, which is
/// started once (with the data folder of the first instance). That is also why batch rendering
/// runs worker processes rather than threads. Synthesis runs on that queue, never on Swift's
/// cooperative threads, so a long synthesis does not hold up other work.
///
/// **The same text gives the same samples, whatever was spoken before.** espeak-ng 1.51 carries
/// three things from one utterance to the next in the same process, none of which its API resets:
///
/// - the index into its pitch-flutter table (`Flutter_ix`, a static in wavegen.c's
///   `AdvanceParameters`), and
/// - the glottal-cycle count that paces its "roughness" amplitude modulation (`cycle_count`, a
///   static in `Wavegen`): both make a word a few samples longer or shorter and slightly
///   different in level depending on how much was spoken before. They are switched off with a
///   voice variant (`flutter 0`, `roughness 0`): the flutter is a ±1 Hz wobble of the pitch and
///   the roughness a periodic dip in amplitude on some vowels, so the voice stays the same voice.
/// - `CalcLengths` (setlengths.c) reads the three phoneme-list entries after the end of the
///   current clause, which hold whatever a longer earlier utterance left there: after
///   "elephant", "ice cream" and "orange" come out 39 ms longer for the rest of the process.
///   Before each utterance a run of pauses as long as it is written through the list (phoneme
///   input, its synthesis stopped at the first buffer), so every utterance finds pauses after
///   its end, as in a fresh process: the output is then the espeak-ng program's, byte for byte.
///
/// Found by building libespeak-ng 1.51 with symbols and comparing every static after different
/// histories. Tested: one word alone and inside batches of other words, in both accents, gives
/// the same samples. espeak-ng reads variants only from its data folder, so the engine runs on a
/// private copy of it made of links to the system's files plus the variant (`SteadyVoiceData`),
/// kept in the folder the caller names.
public final class EspeakSynthesizer: Sendable {
    public let sampleRate: Int
    /// Whether the engine runs the steady variant. False only when its data folder could not be
    /// made (a read-only home): speech still works, but may differ by a few samples between runs.
    public let isSteady: Bool

    private struct Engine: Sendable {
        var rate: Int
        var steadyDataPath: String?
        var systemDataPath: String
    }

    /// The engine shared by every instance in the process: started once, then only used on `queue`.
    private static let engine = Mutex<Result<Engine, SpeechError>?>(nil)
    private static let queue = DispatchQueue(label: "vocab.espeak")
    /// Words being spoken and waiting for the one engine, whichever instance asked.
    private static let queueUse = PoolUse(name: "speech.espeak")
    public var use: PoolUse { Self.queueUse }
    nonisolated(unsafe) private static var currentVoice: String? // only touched on `queue`
    nonisolated(unsafe) private static var voiceNames: [String: String] = [:] // only touched on `queue`
    nonisolated(unsafe) private static var currentRate = defaultRate // only touched on `queue`
    /// espeak-ng's own pace, in words a minute; `speed` scales it.
    public static let defaultRate = 175
    /// The private data folder and the system's it links to; set once, before any synthesis.
    nonisolated(unsafe) private static var steadyData: (path: String, system: String)?

    /// - Parameter dataDirectory: where the engine may keep its private espeak-ng data folder
    ///   (links and one small variant file). Only the first instance in a process decides.
    public init(dataDirectory: String? = nil) throws {
        let started = Self.engine.withLock { state -> Result<Engine, SpeechError> in
            if let state { return state }
            let result = Self.start(dataDirectory: dataDirectory)
            state = result
            return result
        }
        let engine = try started.get()
        sampleRate = engine.rate
        isSteady = engine.steadyDataPath != nil
    }

    private static func start(dataDirectory: String?) -> Result<Engine, SpeechError> {
        guard vocab_espeak_available() != 0 else {
            return .failure(SpeechError(description: "cannot load libespeak-ng: " + String(cString: vocab_espeak_load_error())))
        }
        var steady: String?
        let system = String(cString: vocab_espeak_system_data_path())
        if let dataDirectory {
            steady = try? SteadyVoiceData.prepare(in: dataDirectory, system: system)
        }
        var rate = steady.map { path in path.withCString { vocab_espeak_initialize_quietly(0, $0) } } ?? -1
        if rate <= 0 {
            steady = nil
            rate = vocab_espeak_initialize_quietly(0, nil)
        }
        guard rate > 0 else { return .failure(SpeechError(description: "espeak-ng could not start (is espeak-ng-data installed?)")) }
        vocab_espeak_SetSynthCallback { samples, count, events in
            // The buffer to append to travels in user_data of the call's events.
            guard let events, let user = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SampleSink>.fromOpaque(user).takeUnretainedValue()
            if sink.discard { return 1 }
            if let samples, count > 0 {
                sink.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            }
            return 0
        }
        steadyData = steady.map { ($0, system) }
        return .success(Engine(rate: Int(rate), steadyDataPath: steady, systemDataPath: system))
    }

    final class SampleSink {
        var samples: [Int16] = []
        /// Stop the synthesis at the first buffer (the priming run).
        var discard = false
    }

    /// Speaks `text` with an espeak-ng voice, named by language ("en-gb", "en-us",
    /// "cmn-latn-pinyin"), into mono samples as espeak-ng makes them (with its own silence
    /// around the words).
    /// `speed` scales the pace (0.75: three quarters of espeak-ng's 175 words a minute).
    public func synthesize(_ text: String, voice: String, speed: Double = 1) async throws -> (samples: [Float], sampleRate: Int) {
        let rate = sampleRate
        let steady = isSteady
        let asked = Self.queueUse.asked()
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                Self.queueUse.started(asked: asked)
                defer { Self.queueUse.finished() }
                continuation.resume(with: Result { (try Self.speak(text, voice: voice, steady: steady, speed: speed), rate) })
            }
        }
    }

    /// The same, on the calling thread (blocking until the engine is free): for worker processes
    /// that do nothing else.
    public func synthesizeNow(_ text: String, voice: String, speed: Double = 1) throws -> (samples: [Float], sampleRate: Int) {
        let rate = sampleRate
        let steady = isSteady
        let asked = Self.queueUse.asked()
        return try Self.queue.sync {
            Self.queueUse.started(asked: asked)
            defer { Self.queueUse.finished() }
            return (try Self.speak(text, voice: voice, steady: steady, speed: speed), rate)
        }
    }

    /// Runs on `queue` only.
    private static func speak(_ text: String, voice: String, steady: Bool, speed: Double) throws -> [Float] {
        if currentVoice != voice {
            try select(voice, steady: steady)
            currentVoice = voice
            // Whether loading a voice keeps a pace set before is not promised: after a change
            // of pace, set it again (never set, it is espeak-ng's default either way).
            if currentRate != defaultRate { currentRate = -1 }
        }
        let wordsPerMinute = Int((Double(defaultRate) * speed).rounded())
        if wordsPerMinute != currentRate {
            guard vocab_espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0) == EE_OK else {
                throw SpeechError(description: "espeak-ng cannot speak at \(wordsPerMinute) words a minute")
            }
            currentRate = wordsPerMinute
        }
        prime(length: text.unicodeScalars.count)
        let sink = SampleSink()
        let user = Unmanaged.passRetained(sink)
        defer { user.release() }
        let bytes = Array(text.utf8CString)
        let result = bytes.withUnsafeBufferPointer { buffer in
            vocab_espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, user.toOpaque())
        }
        guard result == EE_OK else { throw SpeechError(description: "espeak-ng failed to speak '\(text)' (error \(result.rawValue))") }
        guard !sink.samples.isEmpty else { throw SpeechError(description: "espeak-ng produced no audio for '\(text)'") }
        return sink.samples.map { Float($0) / 32768 }
    }

    /// Fills the phoneme list with pauses well past where `length` characters of text can reach
    /// (a character gives at most a few phonemes), so the utterance that follows reads pauses
    /// after its end, not what an earlier one left (see above). Stopped at its first buffer.
    private static func prime(length: Int) {
        let pauses = "[[" + String(repeating: "_:", count: min(900, max(64, 3 * length + 8))) + "]]"
        let sink = SampleSink()
        sink.discard = true
        let user = Unmanaged.passRetained(sink)
        defer { user.release() }
        let bytes = Array(pauses.utf8CString)
        _ = bytes.withUnsafeBufferPointer { buffer in
            vocab_espeak_Synth(
                buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakPHONEMES), nil,
                user.toOpaque())
        }
    }

    /// Voices are looked up by language ("en-gb"), as the espeak-ng program's -v does; the
    /// steady variant is then added to the voice file's name ("gmw/en+vocab-steady").
    private static func select(_ voice: String, steady: Bool) throws {
        // espeak-ng reads the voice's files again on every change of voice: if the private data
        // folder was removed while the process runs (a cleaned home), it is made again first,
        // or the new voice would load without its dictionary and speak nothing.
        if let (path, system) = steadyData, !FileManager.default.fileExists(atPath: path + "/voices/!v/" + SteadyVoiceData.variant) {
            try? SteadyVoiceData.build(at: path, system: system)
        }
        if let name = voiceNames[voice] {
            guard vocab_espeak_SetVoiceByName(name) == EE_OK else { throw SpeechError(description: "espeak-ng cannot load the voice '\(name)'") }
            return
        }
        let status = voice.withCString { language -> espeak_ERROR in
            var properties = espeak_VOICE()
            properties.languages = language
            return vocab_espeak_SetVoiceByProperties(&properties)
        }
        guard status == EE_OK, let identifier = vocab_espeak_current_voice_identifier().map({ String(cString: $0) }) else {
            throw SpeechError(description: "espeak-ng has no voice for '\(voice)'")
        }
        var name = identifier
        if steady {
            name = identifier + "+" + SteadyVoiceData.variant
            guard vocab_espeak_SetVoiceByName(name) == EE_OK else { throw SpeechError(description: "espeak-ng cannot load the voice '\(name)'") }
        }
        voiceNames[voice] = name
    }
}

/// A private espeak-ng data folder: links to every file of the system's, plus the variant that
/// makes synthesis independent of what was spoken before (see `EspeakSynthesizer`). Named by a
/// hash of the system folder, its modification time and the variant, so an upgraded espeak-ng
/// gets a fresh copy; made under a temporary name and renamed, so a reader never sees half of it.
public enum SteadyVoiceData {
    public static let variant = "vocab-steady"
    static let variantText = """
        language variant
        name vocab-steady
        flutter 0
        roughness 0

        """

    public static func prepare(in directory: String, system: String) throws -> String {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard !system.isEmpty, fm.fileExists(atPath: system, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SpeechError(description: "no espeak-ng-data folder")
        }
        let modified = (try? fm.attributesOfItem(atPath: system)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(system)\u{0}\(modified)\u{0}\(variantText)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        // What a process killed while making its copy left, whichever copy it was making; the
        // pid in the name tells it from a copy another process is making now.
        TemporaryFile.removeStaleFolders(in: directory, prefix: "espeak-ng-data-")
        let target = directory + "/espeak-ng-data-" + String(hash, radix: 16)
        if fm.fileExists(atPath: target + "/voices/!v/" + variant) { return target }
        try build(at: target, system: system)
        return target
    }

    /// Makes the folder at `target`, linking to the files of `system`.
    public static func build(at target: String, system: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = TemporaryFile.folder(beside: target)
        try? fm.removeItem(atPath: temporary)
        do {
            try fm.createDirectory(atPath: temporary + "/voices/!v", withIntermediateDirectories: true)
            for entry in try fm.contentsOfDirectory(atPath: system) where entry != "voices" {
                try fm.createSymbolicLink(atPath: temporary + "/" + entry, withDestinationPath: system + "/" + entry)
            }
            let voices = system + "/voices"
            for entry in (try? fm.contentsOfDirectory(atPath: voices)) ?? [] where entry != "!v" {
                try fm.createSymbolicLink(atPath: temporary + "/voices/" + entry, withDestinationPath: voices + "/" + entry)
            }
            for entry in (try? fm.contentsOfDirectory(atPath: voices + "/!v")) ?? [] where entry != variant {
                try fm.createSymbolicLink(atPath: temporary + "/voices/!v/" + entry, withDestinationPath: voices + "/!v/" + entry)
            }
            try Data(variantText.utf8).write(to: URL(fileURLWithPath: temporary + "/voices/!v/" + variant))
            if rename(temporary, target) != 0 {
                // Another process made it meanwhile: theirs is the same.
                try? fm.removeItem(atPath: temporary)
                guard fm.fileExists(atPath: target + "/voices/!v/" + variant) else {
                    throw SpeechError(description: "cannot create \(target)")
                }
            }
        } catch {
            try? fm.removeItem(atPath: temporary)
            throw error
        }
    }
}

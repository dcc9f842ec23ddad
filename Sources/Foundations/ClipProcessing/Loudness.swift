import AudioFile
import CEbur128
import Ebur128Shim
import Foundation

public enum LoudnessError: Error, CustomStringConvertible, Sendable, Equatable {
    /// libebur128 could not be loaded; the text says why and what to install.
    case libraryUnavailable(String)
    /// The samples cannot be measured (no samples, a non-finite sample, an impossible rate).
    case invalidInput(String)
    /// libebur128 refused a call (out of memory, in practice).
    case measurementFailed(String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let why): return "loudness measurement unavailable: libebur128 could not be loaded: \(why)"
        case .invalidInput(let why): return "cannot measure loudness: \(why)"
        case .measurementFailed(let why): return "loudness measurement failed: \(why)"
        }
    }
}

/// Where the sound in a clip begins and ends, at 10 ms resolution.
///
/// A frame is sound when its mean square is no more than `belowLoudestDB` under the clip's
/// loudest frame and above `floorDBFS`. Relative, because a legacy clip at −60 LUFS is as much a
/// word as one at −20; absolute, because a clip of dither noise has a loudest frame too.
/// 10 ms frames rather than single samples, so a lone sample is weighed by its energy, not its
/// peak. A burst shorter than 60 ms with 250 ms or more of silence between it and any other sound
/// is a click (the mouse that started or stopped the recording), not part of the word: within a
/// word the silences are stop closures of well under 250 ms, and a syllable lasts more than 60 ms.
/// A clip made only of such bursts keeps them all (it is then too short, not empty).
public struct SpeechGate: Sendable, Equatable {
    public var belowLoudestDB: Double
    public var floorDBFS: Double

    public init(belowLoudestDB: Double, floorDBFS: Double) {
        self.belowLoudestDB = belowLoudestDB
        self.floorDBFS = floorDBFS
    }

    /// For measuring: sound that is more than 30 dB down adds nothing to the power but would
    /// dilute it, e.g. a breath or room tail after the word.
    public static let measurement = SpeechGate(belowLoudestDB: 30, floorDBFS: -90)
    /// For trimming: generous, so soft onsets and endings (/h/, /f/, a final /s/) that sit
    /// 30–40 dB under the vowel are kept. −90 dBFS sits above 16-bit dithered silence (≈ −96).
    public static let trimming = SpeechGate(belowLoudestDB: 40, floorDBFS: -90)

    static let burstFrames = 6        // 60 ms
    static let isolationFrames = 25   // 250 ms

    public static func frameLength(sampleRate: Int) -> Int { max(1, sampleRate / 100) }

    /// The sample range from the first to the last frame of sound; empty when there is none.
    public func span(of pcm: PCM) -> Range<Int> {
        let samples = pcm.samples
        let frame = Self.frameLength(sampleRate: pcm.sampleRate)
        guard !samples.isEmpty else { return 0..<0 }
        let frames = (samples.count + frame - 1) / frame
        var power = [Double](repeating: 0, count: frames)
        samples.withUnsafeBufferPointer { buffer in
            for f in 0..<frames {
                let lower = f * frame, upper = min(samples.count, lower + frame)
                var sum = 0.0
                for i in lower..<upper { let x = Double(buffer[i]); sum += x * x }
                power[f] = sum / Double(upper - lower)
            }
        }
        let loudest = power.max() ?? 0
        let floor = pow(10, floorDBFS / 10)
        guard loudest > floor else { return 0..<0 }
        let threshold = max(loudest * pow(10, -belowLoudestDB / 10), floor)

        // Runs of sound frames, joined across gaps shorter than the isolation.
        var segments: [ClosedRange<Int>] = []
        for f in 0..<frames where power[f] >= threshold {
            if let last = segments.last, f - last.upperBound < Self.isolationFrames {
                segments[segments.count - 1] = last.lowerBound...f
            } else {
                segments.append(f...f)
            }
        }
        let words = segments.filter { $0.count >= Self.burstFrames }
        let kept = words.isEmpty ? segments : words
        guard let first = kept.first, let last = kept.last else { return 0..<0 }
        return (first.lowerBound * frame)..<min(samples.count, (last.upperBound + 1) * frame)
    }
}

/// What `Loudness.measure` found.
public struct LoudnessReport: Sendable, Equatable {
    /// Word loudness in LUFS (see `Loudness.measure`); −∞ when the clip holds no sound.
    public var integratedLUFS: Double
    /// Largest sample magnitude, dBFS, over the whole clip.
    public var samplePeakDBFS: Double
    /// Largest inter-sample peak (libebur128's 4× oversampling below 96 kHz), dBTP, over the whole clip.
    public var truePeakDBTP: Double
    /// The samples the loudness was measured on (`SpeechGate.measurement`); empty when silent.
    public var measuredSpan: Range<Int>
    public var sampleRate: Int

    public var isSilent: Bool { !integratedLUFS.isFinite }
    public var measuredSeconds: Double { Double(measuredSpan.count) / Double(sampleRate) }
    /// How far the true peak stands above the loudness: the headroom a clip needs to reach a
    /// target without its peaks passing the ceiling.
    public var peakToLoudnessRatio: Double { truePeakDBTP - integratedLUFS }
}

/// Loudness of word clips with libebur128 (ITU-R BS.1770-4 / EBU R128), loaded on first use.
public enum Loudness {
    /// The span is repeated until the measured signal lasts this long.
    public static let minimumMeasuredSeconds = 3.0
    public static let plausibleSampleRates: ClosedRange<Int> = 8_000...384_000

    /// True when libebur128 is (or could now be) loaded. The first call loads it.
    public static var isAvailable: Bool { vocab_ebur128_available() != 0 }

    /// "1.2.6", or nil when the library cannot be loaded.
    public static var libraryVersion: String? {
        guard isAvailable else { return nil }
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        vocab_ebur128_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    /// Throws `LoudnessError.libraryUnavailable` with the loader's reason when libebur128 is missing.
    public static func requireLibrary() throws {
        guard isAvailable else { throw LoudnessError.libraryUnavailable(String(cString: vocab_ebur128_load_error())) }
    }

    /// Measures a word clip.
    ///
    /// **Short clips.** BS.1770 integrated loudness averages 400 ms gating blocks (75 % overlap),
    /// which fails for words in two ways: a clip shorter than 400 ms has no block at all
    /// (libebur128 returns −∞ for a 0.28 s "cat"), and a clip a little longer is judged by one or
    /// two blocks that are mostly padding, so a word reads 2–5 LU quieter the shorter it is, as
    /// does the maximum momentary loudness (a 400 ms window over a 170 ms word). What is heard as
    /// the level of a spoken word is the level while it sounds, not how long it lasts (loudness
    /// integrates over only ~100–200 ms). So this measures:
    ///
    /// 1. the span from the first to the last 10 ms frame within 30 dB of the loudest
    ///    (`SpeechGate.measurement`), so silence, a quiet tail or a stray click around the word
    ///    does not count;
    /// 2. that span played end to end until it lasts at least 3 s, through libebur128's integrated
    ///    loudness with its usual gates (−70 LUFS absolute, −10 LU relative). Every 400 ms block of
    ///    a repeated short word holds the whole word, so the result is the K-weighted power of the
    ///    word itself, whatever its length; in a clip longer than 3 s (a phrase) nothing is
    ///    repeated and the relative gate drops the pauses, exactly as BS.1770 intends.
    ///
    /// With espeak-ng, the same word spoken at 80, 175 and 300 words a minute reads −18.7, −19.7
    /// and −20.5 LUFS this way, against −18.6, −22.8 and −∞ for plain integrated loudness and
    /// −17.6, −21.2 and −24.3 for maximum momentary loudness.
    ///
    /// Peaks are taken over the whole clip, not the span: they decide the gain a clip can take.
    /// Loudness range (EBU 3342) is not reported: it needs 3 s short-term windows, which a word
    /// does not have, and over a repeated word it would read 0 LU whatever the word.
    public static func measure(_ pcm: PCM) throws -> LoudnessReport {
        try requireLibrary()
        guard plausibleSampleRates.contains(pcm.sampleRate) else {
            throw LoudnessError.invalidInput("sample rate \(pcm.sampleRate) Hz is outside \(plausibleSampleRates.lowerBound)–\(plausibleSampleRates.upperBound) Hz")
        }
        guard !pcm.samples.isEmpty else { throw LoudnessError.invalidInput("the clip has no samples") }
        if let bad = pcm.samples.firstIndex(where: { !$0.isFinite }) {
            throw LoudnessError.invalidInput("sample \(bad) is not a finite number")
        }

        let peaks = try Meter(sampleRate: pcm.sampleRate, mode: Int32(bitPattern: EBUR128_MODE_TRUE_PEAK.rawValue))
        try pcm.samples.withUnsafeBufferPointer { try peaks.add($0) }
        // The true-peak interpolator lags a few samples; zeros push the clip's last samples through it.
        try [Float](repeating: 0, count: 256).withUnsafeBufferPointer { try peaks.add($0) }
        let samplePeak = try peaks.samplePeak(), truePeak = try peaks.truePeak()

        let span = SpeechGate.measurement.span(of: pcm)
        var integrated = -Double.infinity
        if !span.isEmpty {
            let meter = try Meter(sampleRate: pcm.sampleRate, mode: Int32(bitPattern: EBUR128_MODE_I.rawValue))
            let wanted = Int((minimumMeasuredSeconds * Double(pcm.sampleRate)).rounded(.up))
            let repeats = max(1, (wanted + span.count - 1) / span.count)
            try pcm.samples.withUnsafeBufferPointer { buffer in
                let slice = UnsafeBufferPointer(rebasing: buffer[span])
                for _ in 0..<repeats { try meter.add(slice) }
            }
            integrated = try meter.integrated()
        }
        return LoudnessReport(integratedLUFS: integrated, samplePeakDBFS: decibels(samplePeak),
                              truePeakDBTP: decibels(truePeak), measuredSpan: span, sampleRate: pcm.sampleRate)
    }

    static func decibels(_ amplitude: Double) -> Double { amplitude > 0 ? 20 * log10(amplitude) : -.infinity }
}

/// One libebur128 state for one mono measurement, destroyed with the object: no state is kept
/// between measurements, so a clip's figures never depend on what was measured before it.
final class Meter {
    private var state: UnsafeMutablePointer<ebur128_state>?

    init(sampleRate: Int, mode: Int32) throws {
        guard let state = vocab_ebur128_init(1, UInt(sampleRate), mode) else {
            throw LoudnessError.measurementFailed("ebur128_init refused \(sampleRate) Hz")
        }
        self.state = state
    }

    deinit { vocab_ebur128_destroy(&state) }

    func add(_ samples: UnsafeBufferPointer<Float>) throws {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let status = vocab_ebur128_add_frames_float(state, base, samples.count)
        guard status == Int32(EBUR128_SUCCESS.rawValue) else { throw LoudnessError.measurementFailed("ebur128_add_frames_float returned \(status)") }
    }

    func integrated() throws -> Double { try read("ebur128_loudness_global") { vocab_ebur128_loudness_global(state, $0) } }
    func samplePeak() throws -> Double { try read("ebur128_sample_peak") { vocab_ebur128_sample_peak(state, 0, $0) } }
    func truePeak() throws -> Double { try read("ebur128_true_peak") { vocab_ebur128_true_peak(state, 0, $0) } }

    private func read(_ name: String, _ call: (UnsafeMutablePointer<Double>) -> Int32) throws -> Double {
        var value = 0.0
        let status = call(&value)
        guard status == Int32(EBUR128_SUCCESS.rawValue) else { throw LoudnessError.measurementFailed("\(name) returned \(status)") }
        return value
    }
}

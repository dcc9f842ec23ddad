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

    static let burstFrames = 6 // 60 ms
    static let isolationFrames = 25 // 250 ms

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
                let lower = f * frame
                let upper = min(samples.count, lower + frame)
                var sum = 0.0
                for i in lower..<upper {
                    let x = Double(buffer[i])
                    sum += x * x
                }
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
    /// A speech span up to this long is measured as if repeated end to end (a word); a longer
    /// one as it is, with BS.1770's gates (a phrase). See `measure`.
    public static let minimumMeasuredSeconds = 3.0
    public static let plausibleSampleRates: ClosedRange<Int> = 8_000...384_000

    /// True when libebur128 is (or could now be) loaded. The first call loads it.
    public static var isAvailable: Bool { vocab_ebur128_available() != 0 }

    /// "1.2.6", or nil when the library cannot be loaded.
    public static var libraryVersion: String? {
        guard isAvailable else { return nil }
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
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
    /// 2. that span as if played end to end, over and over: every 400 ms gating block of such a
    ///    signal holds the whole word, so the gates drop nothing and BS.1770's integrated loudness
    ///    is the K-weighted power of one period in steady state: the span's end goes through the
    ///    K-weighting first (to bring the filter to the state it has when the span repeats), then
    ///    the span, whose K-weighted mean square is the loudness (`KWeighting`: libebur128's own
    ///    filter, in Swift; a test holds the two to 0.02 LU). A span longer than
    ///    `minimumMeasuredSeconds` (a phrase) is measured by libebur128 as it is, with the usual
    ///    gates (−70 LUFS absolute, −10 LU relative), which then drop the pauses as BS.1770
    ///    intends. (Feeding the span repeated to 3 s through libebur128's gated measurement gives
    ///    the same figure to within 0.05 LU, at twenty times the cost: it was most of the time of
    ///    rendering a clip.)
    ///
    /// With espeak-ng, the same word spoken at 80, 175 and 300 words a minute reads −18.7, −19.7
    /// and −20.5 LUFS this way, against −18.6, −22.8 and −∞ for plain integrated loudness and
    /// −17.6, −21.2 and −24.3 for maximum momentary loudness.
    ///
    /// Peaks are taken over the whole clip, not the span: they decide the gain a clip can take.
    /// The true peak is libebur128's (4× oversampling with its 49-tap interpolator below 96 kHz),
    /// computed by `TruePeak` only where it can exceed the largest value found so far.
    /// Loudness range (EBU 3342) is not reported: it needs 3 s short-term windows, which a word
    /// does not have, and over a repeated word it would read 0 LU whatever the word.
    public static func measure(_ pcm: PCM) throws -> LoudnessReport {
        try requireLibrary()
        guard plausibleSampleRates.contains(pcm.sampleRate) else {
            throw LoudnessError.invalidInput(
                "sample rate \(pcm.sampleRate) Hz is outside \(plausibleSampleRates.lowerBound)–\(plausibleSampleRates.upperBound) Hz")
        }
        guard !pcm.samples.isEmpty else { throw LoudnessError.invalidInput("the clip has no samples") }
        if let bad = pcm.samples.firstIndex(where: { !$0.isFinite }) {
            throw LoudnessError.invalidInput("sample \(bad) is not a finite number")
        }

        let (samplePeak, truePeak) = try peaks(pcm)
        let span = SpeechGate.measurement.span(of: pcm)
        var integrated = -Double.infinity
        if !span.isEmpty {
            let rate = pcm.sampleRate
            let periodMS = span.count * 1000 / rate
            if Double(span.count) <= minimumMeasuredSeconds * Double(rate), periodMS >= 1 {
                let warmUp = Int((warmUpSeconds * Double(rate)).rounded(.up))
                let energy = pcm.samples.withUnsafeBufferPointer { buffer in
                    KWeighting(sampleRate: rate).meanSquare(of: UnsafeBufferPointer(rebasing: buffer[span]), warmUp: warmUp)
                }
                integrated = energy > 0 ? -0.691 + 10 * log10(energy) : -.infinity
                if integrated < absoluteGateLUFS { integrated = -.infinity }
            } else {
                let meter = try Meter(sampleRate: rate, mode: Int32(bitPattern: EBUR128_MODE_I.rawValue))
                try pcm.samples.withUnsafeBufferPointer { try meter.add(UnsafeBufferPointer(rebasing: $0[span])) }
                integrated = try meter.integrated()
            }
        }
        return LoudnessReport(
            integratedLUFS: integrated, samplePeakDBFS: decibels(samplePeak),
            truePeakDBTP: decibels(truePeak), measuredSpan: span, sampleRate: pcm.sampleRate)
    }

    /// Long enough for the K-weighting's 38 Hz high-pass (time constant 4 ms) to forget its
    /// start: what is left of it after this is below 10⁻¹⁰.
    static let warmUpSeconds = 0.1
    /// BS.1770's absolute gate: nothing quieter counts as sound.
    static let absoluteGateLUFS = -70.0

    /// Sample and true peak of the whole clip (the true peak never below the sample peak).
    static func peaks(_ pcm: PCM) throws -> (sample: Double, truePeak: Double) {
        if let fast = TruePeak(sampleRate: pcm.sampleRate) {
            return pcm.samples.withUnsafeBufferPointer { fast.peaks(of: $0) }
        }
        // Rates libebur128 oversamples otherwise (96 kHz and up): let it do the whole clip.
        let meter = try Meter(sampleRate: pcm.sampleRate, mode: Int32(bitPattern: EBUR128_MODE_TRUE_PEAK.rawValue))
        try pcm.samples.withUnsafeBufferPointer { try meter.add($0) }
        // The true-peak interpolator lags a few samples; zeros push the clip's last samples through it.
        try [Float](repeating: 0, count: 256).withUnsafeBufferPointer { try meter.add($0) }
        return (try meter.samplePeak(), try meter.truePeak())
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
    func window(_ ms: UInt) throws -> Double { try read("ebur128_loudness_window") { vocab_ebur128_loudness_window(state, ms, $0) } }
    func samplePeak() throws -> Double { try read("ebur128_sample_peak") { vocab_ebur128_sample_peak(state, 0, $0) } }
    func truePeak() throws -> Double { try read("ebur128_true_peak") { vocab_ebur128_true_peak(state, 0, $0) } }

    private func read(_ name: String, _ call: (UnsafeMutablePointer<Double>) -> Int32) throws -> Double {
        var value = 0.0
        let status = call(&value)
        guard status == Int32(EBUR128_SUCCESS.rawValue) else { throw LoudnessError.measurementFailed("\(name) returned \(status)") }
        return value
    }
}

/// libebur128's true peak for rates below 96 kHz (its 4× interpolator: a 49-tap Hann-windowed
/// sinc in four phases), computed only where it can matter and in single precision (libebur128
/// sums in double; a test holds the two to within 10⁻⁶). An interpolated value is at most the sum
/// of its phase's absolute coefficients times the largest input sample it reaches, so blocks of
/// steps whose largest input, times that bound, stays under the peak already found cannot hold
/// the true peak and are skipped: on a word, most of the clip. Computing every step of every phase
/// in double, as libebur128 does, was a third of the cost of processing a clip.
struct TruePeak: Sendable {
    static let taps = 49
    static let factor = 4
    /// The coefficients do not depend on the rate (below 96 kHz).
    static let shared = TruePeak()

    /// Phases 1 to 3, twelve coefficients each, in libebur128's order: the output of phase f at
    /// input step s is Σ coefficients[f][k] · x[s − k]. Phase 0 is the input itself (one
    /// coefficient of 1, delayed), which the sample peak already covers.
    let coefficients: [Double]
    /// The same, reversed and in single precision, to multiply with x[s − 11 ... s] as loaded.
    let reversed: [(SIMD8<Float>, SIMD4<Float>)]
    static let phases = 3, span = 12
    /// Per phase, the sum of its absolute coefficients: how far above its inputs an output can go.
    let bounds: [Double]

    init?(sampleRate: Int) {
        guard sampleRate < 96_000 else { return nil }
        self = Self.shared
    }

    private init() {
        var phases = [[Double]](repeating: [], count: Self.factor)
        for j in 0..<Self.taps {
            let m = Double(j) - Double(Self.taps - 1) / 2
            var c = 1.0
            if abs(m) > 1e-6 { c = sin(m * .pi / Double(Self.factor)) / (m * .pi / Double(Self.factor)) }
            c *= 0.5 * (1 - cos(2 * .pi * Double(j) / Double(Self.taps - 1)))
            // libebur128 drops coefficients this small; in phases 1 to 3 there are none.
            if abs(c) > 1e-6 { phases[j % Self.factor].append(c) }
        }
        precondition(phases[1...].allSatisfy { $0.count == Self.span })
        coefficients = Array(phases[1...].joined())
        bounds = phases[1...].map { $0.reduce(0) { $0 + abs($1) } }
        reversed = phases[1...].map { row in
            let r = row.reversed().map(Float.init)
            return (SIMD8<Float>(r[0..<8]), SIMD4<Float>(r[8..<12]))
        }
    }

    /// Steps skipped or computed together: a block's inputs lie within two blocks of input
    /// (`span` − 1 < `block`), whose largest magnitudes bound every output of the block.
    static let block = 16

    func peaks(of x: UnsafeBufferPointer<Float>) -> (sample: Double, truePeak: Double) {
        let n = x.count
        let w = Self.span
        let size = Self.block
        guard n > 0, let xp = x.baseAddress else { return (0, 0) }
        // Outputs exist for every input step, including w steps of zeros after the end; the
        // output at step s reaches inputs s − (w − 1) ... s, so the outputs of steps
        // [t·size, (t + 1)·size) reach no further than input blocks t − 1 and t. An output cannot
        // exceed its largest input times its phase's bound, so blocks whose bound stays under the
        // peak found so far are skipped whole: most of a word. (Skipping step by step, with a
        // sliding maximum, cost more in bookkeeping than the steps it saved.)
        let steps = n + w
        let inputBlocks = (n + size - 1) / size
        let stepBlocks = (steps + size - 1) / size
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: inputBlocks) { largest in
            var samplePeak: Float = 0
            var loudest = 0
            for b in 0..<inputBlocks {
                var m: Float = 0
                for i in (b * size)..<min(n, (b + 1) * size) {
                    let v = abs(xp[i])
                    m = max(m, v)
                    if v > samplePeak {
                        samplePeak = v
                        loudest = i
                    }
                }
                largest[b] = m
            }
            let bound = (Float(bounds[0]), Float(bounds[1]), Float(bounds[2]))
            let widest = max(bound.0, bound.1, bound.2)
            let rows = (reversed[0], reversed[1], reversed[2])
            var best = samplePeak
            func visit(_ t: Int) {
                let m = max(t > 0 ? largest[t - 1] : 0, t < inputBlocks ? largest[t] : 0)
                if m * widest <= best { return }
                for s in (t * size)..<min(steps, (t + 1) * size) {
                    let j = s - (w - 1)
                    if j >= 0 && s < n {
                        // Twelve products at once, in single precision: within 10⁻⁶ of
                        // libebur128's double sums, which the ceiling does not notice.
                        let raw = UnsafeRawPointer(xp + j)
                        let v8 = raw.loadUnaligned(as: SIMD8<Float>.self)
                        let v4 = raw.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)
                        if m * bound.0 > best { best = max(best, abs((v8 * rows.0.0).sum() + (v4 * rows.0.1).sum())) }
                        if m * bound.1 > best { best = max(best, abs((v8 * rows.1.0).sum() + (v4 * rows.1.1).sum())) }
                        if m * bound.2 > best { best = max(best, abs((v8 * rows.2.0).sum() + (v4 * rows.2.1).sum())) }
                    } else {
                        // The first and last steps, which reach past the clip's ends (zeros there).
                        for f in 0..<Self.phases {
                            var acc = 0.0
                            for k in 0..<w where s - k >= 0 && s - k < n { acc += Double(xp[s - k]) * coefficients[f * w + k] }
                            best = max(best, abs(Float(acc)))
                        }
                    }
                }
            }
            // Around the loudest sample first, then everywhere: the peak found near the loudest
            // sample rules out most of the rest.
            let first = loudest / size
            visit(first)
            if first + 1 < stepBlocks { visit(first + 1) }
            for t in 0..<stepBlocks where t != first && t != first + 1 { visit(t) }
            return (Double(samplePeak), Double(best))
        }
    }
}

/// BS.1770's K-weighting, as libebur128 1.2.6 builds it (`ebur128_init_filter`: the high shelf
/// and the RLB high-pass combined into one fourth-order filter, coefficients for the clip's own
/// rate) and runs it (direct form II, in double), so a mean square here is the energy libebur128
/// would report for the same samples. In Swift for word clips: libebur128's filter also copies
/// into its window buffer and flushes denormals on every call, five times the cost.
struct KWeighting {
    let b: (Double, Double, Double, Double, Double)
    let a: (Double, Double, Double, Double) // a1 ... a4 (a0 = 1)

    init(sampleRate: Int) {
        var f0 = 1681.974450955533
        let G = 3.999843853973347
        var Q = 0.7071752369554196
        var K = tan(Double.pi * f0 / Double(sampleRate))
        let Vh = pow(10.0, G / 20.0)
        let Vb = pow(Vh, 0.4996667741545416)
        let a0 = 1.0 + K / Q + K * K
        let pb = [(Vh + Vb * K / Q + K * K) / a0, 2.0 * (K * K - Vh) / a0, (Vh - Vb * K / Q + K * K) / a0]
        let pa = [1.0, 2.0 * (K * K - 1.0) / a0, (1.0 - K / Q + K * K) / a0]
        f0 = 38.13547087602444
        Q = 0.5003270373238773
        K = tan(Double.pi * f0 / Double(sampleRate))
        let rb = [1.0, -2.0, 1.0]
        let ra = [1.0, 2.0 * (K * K - 1.0) / (1.0 + K / Q + K * K), (1.0 - K / Q + K * K) / (1.0 + K / Q + K * K)]
        b = (
            pb[0] * rb[0], pb[0] * rb[1] + pb[1] * rb[0], pb[0] * rb[2] + pb[1] * rb[1] + pb[2] * rb[0],
            pb[1] * rb[2] + pb[2] * rb[1], pb[2] * rb[2]
        )
        a = (pa[0] * ra[1] + pa[1] * ra[0], pa[0] * ra[2] + pa[1] * ra[1] + pa[2] * ra[0], pa[1] * ra[2] + pa[2] * ra[1], pa[2] * ra[2])
    }

    /// The mean square of the K-weighted `samples`, after running the last `warmUp` of them
    /// (repeated if they are fewer) through the filter first, as if the samples repeated.
    func meanSquare(of samples: UnsafeBufferPointer<Float>, warmUp: Int) -> Double {
        guard !samples.isEmpty, let x = samples.baseAddress else { return 0 }
        let n = samples.count
        let (a1, a2, a3, a4) = a
        let (b0, b1, b2, b3, b4) = b
        var v1 = 0.0
        var v2 = 0.0
        var v3 = 0.0
        var v4 = 0.0
        var fed = 0
        while fed < warmUp {
            let part = min(n, warmUp - fed)
            for i in (n - part)..<n {
                let v0 = (Double(x[i]) - a4 * v4 - a3 * v3 - a2 * v2) - a1 * v1
                v4 = v3
                v3 = v2
                v2 = v1
                v1 = v0
            }
            fed += part
        }
        var sum = 0.0
        for i in 0..<n {
            // The previous output last: the chain from one sample to the next is then one
            // multiplication and one subtraction, not four subtractions (2.5 times faster).
            let v0 = (Double(x[i]) - a4 * v4 - a3 * v3 - a2 * v2) - a1 * v1
            let y = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
            v4 = v3
            v3 = v2
            v2 = v1
            v1 = v0
            sum += y * y
        }
        return sum / Double(n)
    }
}

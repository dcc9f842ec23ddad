import AudioFile
import Foundation

public enum ClipProcessingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Nothing to normalise: no sound at all, or so little that the gain would raise noise.
    case silent(String)
    case invalidSettings(String)

    public var description: String {
        switch self {
        case .silent(let why): return "clip is silent: \(why)"
        case .invalidSettings(let why): return "invalid clip processing settings: \(why)"
        }
    }
}

/// What `ClipProcessor.process` did to a clip.
public struct ProcessingReport: Sendable, Equatable, Codable {
    public var targetLUFS: Double
    /// The loudness of the speech as it came in (measured on the trimmed clip: the measurement
    /// leaves silence out either way).
    public var inputLUFS: Double
    /// The output's loudness (the input's plus the gain, which is exact for a linear gain, or
    /// measured again for very quiet input); below the target only when `peakLimited`.
    public var outputLUFS: Double
    public var gainDB: Double
    /// The gain was lowered so the true peak stays under the ceiling; the target was not reached.
    public var peakLimited: Bool
    public var trimmedLeadingMS: Double
    public var trimmedTrailingMS: Double
    /// Of the trimmed clip: a click cut off with the silence does not count.
    public var inputTruePeakDBTP: Double
    public var outputTruePeakDBTP: Double
    public var outputSamplePeakDBFS: Double
    /// Where the speech lies in the output samples (the margins are outside it).
    public var speechInOutput: Range<Int>
    public var outputSeconds: Double
}

public struct ProcessedClip: Sendable {
    public var pcm: PCM
    public var report: ProcessingReport
}

/// Trims a clip to its speech and brings it to one loudness, the same way every time.
///
/// Pure arithmetic on the samples: no randomness, no dither, no state kept between calls, so
/// the same samples always give the same output bytes, whatever was processed before.
public struct ClipProcessor: Sendable {
    public struct Settings: Sendable, Equatable {
        /// −20 LUFS: the level vocab's espeak-ng tier already comes out at (−18.5 to −22 LUFS per
        /// word as measured here), so speech needs little gain; inside the −16…−23 LUFS range used
        /// for spoken-word delivery; and it leaves 19 dB under a −1 dBTP ceiling, more than the
        /// 12.6–18.2 dB peak-to-loudness ratio measured on espeak-ng words and typical of recorded
        /// single words, so gain limiting stays the exception. Louder targets (−16) would clip
        /// the peakier recordings' gain; quieter ones (−23) would sound weak on phone speakers.
        public var targetLUFS: Double = -20
        /// −1 dBTP: EBU R128's ceiling for delivery, leaving room for the overshoot of lossy
        /// encoders (Ogg Vorbis, MP3) that vocab serves.
        public var peakCeilingDBTP: Double = -1
        /// What counts as silence at the ends (see `SpeechGate.trimming`).
        public var silence: SpeechGate = .trimming
        /// Kept before the first and after the last frame of speech: a word cut exactly at its
        /// first loud frame loses the start of a soft onset, and players clip the first few ms.
        public var leadingMarginMS: Double = 40
        /// A little longer than the leading margin: final releases and plosive bursts trail.
        public var trailingMarginMS: Double = 50
        /// Raised-cosine fade at each end, so the cut never starts or stops on a step (a click).
        public var fadeMS: Double = 5
        /// A clip whose word loudness is below this is refused instead of raised by 50 dB or more:
        /// what would be heard is its noise. −70 is BS.1770's absolute gate.
        public var silentBelowLUFS: Double = -70

        public init() {}
    }

    public var settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public func process(_ pcm: PCM) throws -> ProcessedClip {
        try validateSettings()
        let rate = pcm.sampleRate
        guard Loudness.plausibleSampleRates.contains(rate), !pcm.samples.isEmpty else {
            // Measuring says why (no samples, an impossible rate) in its own words.
            _ = try Loudness.measure(pcm)
            throw ClipProcessingError.silent("no samples")
        }
        let speech = settings.silence.span(of: pcm)
        guard !speech.isEmpty else { throw ClipProcessingError.silent("no sound above \(Int(settings.silence.floorDBFS)) dBFS") }
        let lead = samples(settings.leadingMarginMS, rate)
        let trail = samples(settings.trailingMarginMS, rate)
        let kept = max(0, speech.lowerBound - lead)..<min(pcm.samples.count, speech.upperBound + trail)

        var trimmed = Array(pcm.samples[kept])
        applyFades(&trimmed, length: samples(settings.fadeMS, rate))
        // One measurement, of the trimmed clip: the loudness is the speech's (the measurement
        // gates silence out anyway), and loudness and true peak follow a linear gain exactly,
        // so the output's figures are the input's plus the gain. Measuring three times (input,
        // trimmed, output) was half the cost of rendering a word.
        let unity = try Loudness.measure(PCM(samples: trimmed, sampleRate: rate))
        guard !unity.isSilent else { throw ClipProcessingError.silent("no sound left after trimming") }
        guard unity.integratedLUFS >= settings.silentBelowLUFS else {
            throw ClipProcessingError.silent(String(format: "%.1f LUFS is below %.0f LUFS", unity.integratedLUFS, settings.silentBelowLUFS))
        }

        var gainDB = settings.targetLUFS - unity.integratedLUFS
        var limited = false
        // True peak scales with a linear gain, so the allowed gain follows from the unity measurement.
        if unity.truePeakDBTP + gainDB > settings.peakCeilingDBTP {
            gainDB = settings.peakCeilingDBTP - unity.truePeakDBTP
            limited = true
        }
        let factor = pow(10, gainDB / 20)
        // Gain in Double, rounded once to Float; clamped only as a guard, the ceiling is ≤ 0 dBTP.
        let output = trimmed.map { Float(min(1, max(-1, Double($0) * factor))) }
        var outLUFS = unity.integratedLUFS + gainDB
        var outTruePeak = unity.truePeakDBTP + gainDB
        var outSamplePeak = unity.samplePeakDBFS + gainDB
        if unity.integratedLUFS < Self.exactBelowLUFS {
            // BS.1770's absolute gate (-70 LUFS) may have left out blocks of a very quiet clip
            // that count once it is raised: measure what comes out instead.
            let out = try Loudness.measure(PCM(samples: output, sampleRate: rate))
            (outLUFS, outTruePeak, outSamplePeak) = (out.integratedLUFS, out.truePeakDBTP, out.samplePeakDBFS)
        }

        let msPerSample = 1000 / Double(rate)
        let report = ProcessingReport(
            targetLUFS: settings.targetLUFS, inputLUFS: unity.integratedLUFS, outputLUFS: outLUFS,
            gainDB: gainDB, peakLimited: limited,
            trimmedLeadingMS: Double(kept.lowerBound) * msPerSample,
            trimmedTrailingMS: Double(pcm.samples.count - kept.upperBound) * msPerSample,
            inputTruePeakDBTP: unity.truePeakDBTP, outputTruePeakDBTP: outTruePeak,
            outputSamplePeakDBFS: outSamplePeak,
            speechInOutput: (speech.lowerBound - kept.lowerBound)..<(speech.upperBound - kept.lowerBound),
            outputSeconds: Double(output.count) / Double(rate))
        return ProcessedClip(pcm: PCM(samples: output, sampleRate: rate), report: report)
    }

    /// Below this loudness the output is measured again rather than computed (see `process`).
    static let exactBelowLUFS = -50.0

    private func validateSettings() throws {
        let s = settings
        guard s.targetLUFS.isFinite, s.targetLUFS < 0 else { throw ClipProcessingError.invalidSettings("target \(s.targetLUFS) LUFS") }
        guard s.peakCeilingDBTP.isFinite, s.peakCeilingDBTP <= 0 else {
            throw ClipProcessingError.invalidSettings("peak ceiling \(s.peakCeilingDBTP) dBTP is above full scale")
        }
        for (name, ms) in [("leading margin", s.leadingMarginMS), ("trailing margin", s.trailingMarginMS), ("fade", s.fadeMS)] {
            guard ms.isFinite, (0...1000).contains(ms) else { throw ClipProcessingError.invalidSettings("\(name) \(ms) ms is outside 0–1000 ms") }
        }
        guard s.silence.belowLoudestDB > 0, s.silence.floorDBFS < 0 else {
            throw ClipProcessingError.invalidSettings("silence gate \(s.silence.belowLoudestDB) dB below the loudest frame, floor \(s.silence.floorDBFS) dBFS")
        }
    }

    private func samples(_ ms: Double, _ rate: Int) -> Int { Int((ms * Double(rate) / 1000).rounded()) }

    /// Half-cosine ramps; on a clip shorter than two fades each ramp takes half of it.
    private func applyFades(_ samples: inout [Float], length: Int) {
        let n = min(length, samples.count / 2)
        guard n > 0 else { return }
        for i in 0..<n {
            let g = Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(n)))
            samples[i] *= g
            samples[samples.count - 1 - i] *= g
        }
    }
}

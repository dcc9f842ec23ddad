import AudioFile
import Foundation

/// Why an imported recording cannot be used, worded for the teacher who has to fix it.
public enum ClipProblem: Sendable, Equatable, CustomStringConvertible {
    case undecodable(reason: String)
    /// The header declares more frames than the file holds (an interrupted upload or copy).
    case truncated(headerFrames: Int, decodedFrames: Int)
    case implausibleSampleRate(hertz: Int, allowed: ClosedRange<Int>)
    case silent(loudnessLUFS: Double, threshold: Double)
    case tooShort(speechSeconds: Double, minimum: Double)
    case tooLong(speechSeconds: Double, maximum: Double)
    case clipped(flatSamples: Int, fraction: Double, runs: Int, longestRun: Int)

    public var description: String {
        switch self {
        case .undecodable(let reason):
            return "cannot be decoded (\(reason)); export it again as WAV, FLAC or Ogg"
        case .truncated(let header, let decoded):
            let percent = header > 0 ? 100 * Double(decoded) / Double(header) : 0
            return
                "truncated: header says \(header) frames, file holds \(decoded) (\(String(format: "%.0f", percent)) %); the upload or copy was cut short, send the whole file again"
        case .implausibleSampleRate(let hz, let allowed):
            return "sample rate \(hz) Hz is outside \(allowed.lowerBound)–\(allowed.upperBound) Hz; export at 44100 or 48000 Hz"
        case .silent(let lufs, let threshold):
            let level = lufs.isFinite ? String(format: "%.1f LUFS, below the %.0f LUFS that a voice reaches", lufs, threshold) : "no sound at all"
            return "silent: \(level); check that the microphone was on and selected"
        case .tooShort(let s, let minimum):
            return String(format: "too short: %.2f s of speech after trimming silence, at least %.1f s needed; record the whole word", s, minimum)
        case .tooLong(let s, let maximum):
            return String(format: "too long: %.1f s of speech after trimming silence, at most %.0f s; record one word or phrase per file", s, maximum)
        case .clipped(let flat, let fraction, let runs, let longest):
            return String(
                format: "clipped: %d samples (%.2f %%) stuck at full scale in %d runs, the longest %d samples; record again with the input level lower", flat,
                fraction * 100, runs, longest)
        }
    }
}

/// The environment, not the recording, is at fault.
public enum ClipValidationError: Error, CustomStringConvertible, Sendable, Equatable {
    case audioLibraryUnavailable(String)

    public var description: String {
        switch self {
        case .audioLibraryUnavailable(let why): return "cannot check recordings: libsndfile could not be loaded: \(why)"
        }
    }
}

/// The outcome of checking one recording: acceptable when `problems` is empty.
public struct ClipCheck: Sendable {
    /// Every problem found, so a teacher can fix them all in one go.
    public var problems: [ClipProblem]
    public var sampleRate: Int
    public var channels: Int
    public var decodedFrames: Int
    /// What the header declared, where the format has such a count.
    public var headerFrames: Int?
    public var durationSeconds: Double
    /// From the first to the last frame of sound (`SpeechGate.trimming`).
    public var speechSeconds: Double
    /// Nil when the samples could not be measured (undecodable, implausible sample rate).
    public var loudness: LoudnessReport?

    public var isAcceptable: Bool { problems.isEmpty }
}

/// Checks recordings that a teacher imports before they join the recorded tier.
public enum ClipValidator {
    public struct Rules: Sendable, Equatable {
        public var speechSeconds: ClosedRange<Double> = 0.1...10
        public var sampleRates: ClosedRange<Int> = 8_000...192_000
        public var silentBelowLUFS: Double = -70
        public var silence: SpeechGate = .trimming
        /// Clipping is a flat top: `clipRun` or more consecutive samples at |x| ≥ `clipLevel`.
        /// A single sample at full scale is a peak-normalised recording, not a clipped one; three
        /// in a row at 0.999 do not happen on a rounded waveform peak at 22 kHz or above.
        public var clipLevel: Float = 0.999
        public var clipRun: Int = 3
        /// Refused when flat-top samples exceed this share of the clip: a few isolated overs are
        /// inaudible, 0.1 % (44 samples in a 1 s clip at 44.1 kHz) is a distorted syllable.
        public var clippedFraction: Double = 0.001

        public init() {}
    }

    /// Decodes the file fully and checks it. Problems with the recording are returned in the
    /// check; only a broken environment (libsndfile or libebur128 missing) throws.
    public static func validate(path: String, rules: Rules = Rules()) throws -> ClipCheck {
        if let why = AudioFile.libraryLoadError { throw ClipValidationError.audioLibraryUnavailable(why) }
        let decoded: DecodedAudio
        do {
            decoded = try AudioFile.decode(path)
        } catch let error as AudioError {
            return ClipCheck(
                problems: [.undecodable(reason: reason(error))], sampleRate: 0, channels: 0, decodedFrames: 0,
                headerFrames: nil, durationSeconds: 0, speechSeconds: 0, loudness: nil)
        }
        var check = try validate(pcm: decoded.pcm, rules: rules)
        check.channels = decoded.channels
        check.headerFrames = decoded.headerFrames
        // The header's count where there is one: libsndfile has already shrunk `reportedFrames`
        // of a cut WAV to what is there. Otherwise what it reported (FLAC's STREAMINFO, say).
        let promised = decoded.headerFrames ?? decoded.reportedFrames
        if decoded.decodedFrames < promised {
            check.problems.insert(.truncated(headerFrames: promised, decodedFrames: decoded.decodedFrames), at: 0)
        }
        return check
    }

    public static func validate(pcm: PCM, rules: Rules = Rules()) throws -> ClipCheck {
        var check = ClipCheck(
            problems: [], sampleRate: pcm.sampleRate, channels: 1, decodedFrames: pcm.samples.count,
            headerFrames: nil, durationSeconds: pcm.duration, speechSeconds: 0, loudness: nil)
        guard rules.sampleRates.contains(pcm.sampleRate) else {
            check.problems.append(.implausibleSampleRate(hertz: pcm.sampleRate, allowed: rules.sampleRates))
            return check
        }
        guard !pcm.samples.isEmpty else {
            check.problems.append(.silent(loudnessLUFS: -.infinity, threshold: rules.silentBelowLUFS))
            return check
        }
        if let bad = pcm.samples.firstIndex(where: { !$0.isFinite }) {
            check.problems.append(.undecodable(reason: "sample \(bad) is not a number"))
            return check
        }

        do {
            check.loudness = try Loudness.measure(pcm)
        } catch LoudnessError.invalidInput(let why) {
            check.problems.append(.undecodable(reason: why))
            return check
        }
        let lufs = check.loudness?.integratedLUFS ?? -.infinity
        if lufs < rules.silentBelowLUFS {
            check.problems.append(.silent(loudnessLUFS: lufs, threshold: rules.silentBelowLUFS))
        } else {
            let speech = rules.silence.span(of: pcm)
            check.speechSeconds = Double(speech.count) / Double(pcm.sampleRate)
            if check.speechSeconds < rules.speechSeconds.lowerBound {
                check.problems.append(.tooShort(speechSeconds: check.speechSeconds, minimum: rules.speechSeconds.lowerBound))
            } else if check.speechSeconds > rules.speechSeconds.upperBound {
                check.problems.append(.tooLong(speechSeconds: check.speechSeconds, maximum: rules.speechSeconds.upperBound))
            }
        }
        if let clipping = flatTops(pcm.samples, level: rules.clipLevel, run: rules.clipRun),
            Double(clipping.samples) > rules.clippedFraction * Double(pcm.samples.count)
        {
            check.problems.append(
                .clipped(
                    flatSamples: clipping.samples, fraction: Double(clipping.samples) / Double(pcm.samples.count),
                    runs: clipping.runs, longestRun: clipping.longest))
        }
        return check
    }

    /// Samples in runs of at least `run` consecutive samples at or above `level`, same sign.
    static func flatTops(_ samples: [Float], level: Float, run: Int) -> (samples: Int, runs: Int, longest: Int)? {
        var total = 0
        var runs = 0
        var longest = 0
        var current = 0
        var sign: Float = 0
        func close() {
            if current >= run {
                total += current
                runs += 1
                longest = max(longest, current)
            }
            current = 0
        }
        for x in samples {
            if abs(x) >= level {
                let s: Float = x > 0 ? 1 : -1
                if current > 0 && s != sign { close() }
                sign = s
                current += 1
            } else if current > 0 {
                close()
            }
        }
        close()
        return runs > 0 ? (total, runs, longest) : nil
    }

    private static func reason(_ error: AudioError) -> String {
        switch error {
        case .unreadable(_, let reason), .implausible(_, let reason), .writeFailed(_, let reason): return reason
        case .noSpace: return "no space left on the disk"
        }
    }
}

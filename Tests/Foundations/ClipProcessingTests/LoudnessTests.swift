import AudioFile
import CEbur128
import Foundation
import SeededRandom
import Testing

@testable import ClipProcessing

@Suite struct LoudnessTests {
    @Test func sineAtMinus20dBFSReadsMinus20LUFS() throws {
        // BS.1770's calibration: a 1 kHz sine reads its RMS level in LUFS.
        let report = try Loudness.measure(tone(hertz: 1000, rmsDBFS: -20, seconds: 2))
        #expect(abs(report.integratedLUFS - -20) < 0.1)
        #expect(abs(report.samplePeakDBFS - (-20 + 3.01)) < 0.05)
        #expect(report.truePeakDBTP >= report.samplePeakDBFS - 0.001)
    }

    @Test func clipShorterThanOneGatingBlockIsMeasured() throws {
        // Plain integrated loudness has no 400 ms block here and gives −∞.
        let report = try Loudness.measure(tone(hertz: 1000, rmsDBFS: -20, seconds: 0.15))
        #expect(report.integratedLUFS.isFinite)
        #expect(abs(report.integratedLUFS - -20) < 0.2)
    }

    @Test func sameLevelReadsTheSameWhateverTheDuration() throws {
        let readings = try [0.12, 0.25, 0.5, 1.0, 2.5, 6.0].map {
            try Loudness.measure(tone(hertz: 440, rmsDBFS: -23, seconds: $0)).integratedLUFS
        }
        #expect(spread(readings) < 0.2, "readings \(readings)")
    }

    @Test func silenceAroundAWordDoesNotChangeItsLoudness() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("cat", in: scratch)
        let padded = PCM(
            samples: [Float](repeating: 0, count: 3 * 22050) + word.samples + [Float](repeating: 0, count: 22050),
            sampleRate: word.sampleRate)
        let a = try Loudness.measure(word)
        let b = try Loudness.measure(padded)
        #expect(abs(a.integratedLUFS - b.integratedLUFS) < 0.05)
        #expect(b.measuredSpan.lowerBound >= 3 * 22050)
    }

    @Test func loudnessFollowsGainExactly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("umbrella", in: scratch)
        let a = try Loudness.measure(word)
        let b = try Loudness.measure(Variant.scaled(word, dB: -40))
        #expect(abs((a.integratedLUFS - b.integratedLUFS) - 40) < 0.05)
        #expect(abs((a.truePeakDBTP - b.truePeakDBTP) - 40) < 0.05)
    }

    @Test func sameWordAtDifferentSpeakingRatesReadsClose() throws {
        // At 300 words a minute espeak-ng's "cat" lasts 0.17 s: no gating block at all.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let readings = try [80, 175, 300].map { try Loudness.measure(spoken("cat", in: scratch, wordsPerMinute: $0)).integratedLUFS }
        print("cat at 80/175/300 wpm:", readings.map { String(format: "%.2f", $0) }.joined(separator: " "), "LUFS")
        #expect(readings.allSatisfy { $0.isFinite })
        #expect(spread(readings) < 2.5, "readings \(readings)")
    }

    @Test func silenceIsMinusInfinityNotAnError() throws {
        let report = try Loudness.measure(Variant.silence(seconds: 1))
        #expect(report.isSilent)
        #expect(report.integratedLUFS == -.infinity)
        #expect(report.samplePeakDBFS == -.infinity)
        #expect(report.measuredSpan.isEmpty)
    }

    @Test func agreesWithSoxKWeighting() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for word in ["elephant", "it"] {
            let pcm = try spoken(word, in: scratch)
            let ours = try Loudness.measure(pcm)
            let span = PCM(samples: Array(pcm.samples[ours.measuredSpan]), sampleRate: pcm.sampleRate)
            let sox = try soxLoudness(span, scratch: scratch)
            print(String(format: "%@: libebur128 (repeated span) %.2f LUFS, sox K-weighted RMS %.2f LUFS", word, ours.integratedLUFS, sox))
            #expect(abs(ours.integratedLUFS - sox) < 0.5, "\(word): \(ours.integratedLUFS) vs sox \(sox)")
        }
    }

    @Test func refusesWhatCannotBeMeasured() {
        #expect(throws: LoudnessError.self) { try Loudness.measure(PCM(samples: [], sampleRate: 22050)) }
        #expect(throws: LoudnessError.self) { try Loudness.measure(PCM(samples: [0.1, .nan, 0.1], sampleRate: 22050)) }
        #expect(throws: LoudnessError.self) { try Loudness.measure(PCM(samples: [0.1, 0.2], sampleRate: 100)) }
    }

    @Test func gateFindsTheWordNotAClick() throws {
        // A mouse click 2 s before the word and another as the recording is stopped.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("fish", in: scratch)
        let lead = 200 * SpeechGate.frameLength(sampleRate: 22050) // 2 s, on the 10 ms frame grid
        var samples = [Float](repeating: 0, count: lead)
        for i in 1000..<1010 { samples[i] = i % 2 == 0 ? 0.6 : -0.6 }
        var tail = [Float](repeating: 0, count: 22050)
        for i in 15000..<15020 { tail[i] = i % 2 == 0 ? -0.5 : 0.5 }
        let pcm = PCM(samples: samples + word.samples + tail, sampleRate: 22050)
        let span = SpeechGate.trimming.span(of: pcm)
        let alone = SpeechGate.trimming.span(of: word)
        #expect(span.lowerBound == lead + alone.lowerBound)
        #expect(span.upperBound == lead + alone.upperBound)
        #expect(abs(try Loudness.measure(pcm).integratedLUFS - Loudness.measure(word).integratedLUFS) < 0.05)
    }
}

@Suite struct TruePeakTests {
    /// libebur128 itself, over the whole clip, as `Loudness` measured it before it skipped the
    /// stretches that cannot hold the peak.
    func libebur128(_ pcm: PCM) throws -> (sample: Double, truePeak: Double) {
        let meter = try Meter(sampleRate: pcm.sampleRate, mode: Int32(bitPattern: EBUR128_MODE_TRUE_PEAK.rawValue))
        try pcm.samples.withUnsafeBufferPointer { try meter.add($0) }
        try [Float](repeating: 0, count: 256).withUnsafeBufferPointer { try meter.add($0) }
        return (try meter.samplePeak(), try meter.truePeak())
    }

    @Test func theSameAsLibebur128OnSpeechTonesAndEdges() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var clips = try ["cat", "elephant", "ice cream", "zoo"].map { try spoken($0, in: scratch) }
        clips.append(tone(hertz: 5000, rmsDBFS: -3, seconds: 0.3, sampleRate: 22050)) // peaks between samples
        clips.append(PCM(samples: [0, 0.9, -0.9, 0.9, -0.9, 0.9, 0], sampleRate: 44100)) // the interpolator's worst case, at the edges
        var spiky = tone(hertz: 300, rmsDBFS: -40, seconds: 0.4, sampleRate: 48000)
        spiky.samples[100] = 0.7
        clips.append(spiky)
        for pcm in clips {
            let ours = try pcm.samples.withUnsafeBufferPointer { try #require(TruePeak(sampleRate: pcm.sampleRate)).peaks(of: $0) }
            let reference = try libebur128(pcm)
            #expect(ours.sample == reference.sample)
            #expect(abs(ours.truePeak - reference.truePeak) < 1e-6 * max(1, reference.truePeak), "\(ours.truePeak) against \(reference.truePeak)")
        }
    }

    /// Every step of every phase, none skipped, with the same sums as `TruePeak.peaks`.
    func everyStep(_ x: [Float]) -> Float {
        let peak = TruePeak.shared
        let w = TruePeak.span
        var best = x.map(abs).max() ?? 0
        for s in 0..<(x.count + w) {
            let j = s - (w - 1)
            for f in 0..<TruePeak.phases {
                let value: Float
                if j >= 0 && s < x.count {
                    let v8 = SIMD8<Float>(x[j..<j + 8])
                    let v4 = SIMD4<Float>(x[j + 8..<j + 12])
                    value = (v8 * peak.reversed[f].0).sum() + (v4 * peak.reversed[f].1).sum()
                } else {
                    var acc = 0.0
                    for k in 0..<w where s - k >= 0 && s - k < x.count { acc += Double(x[s - k]) * peak.coefficients[f * w + k] }
                    value = Float(acc)
                }
                best = max(best, abs(value))
            }
        }
        return best
    }

    @Test("skipping the blocks that cannot hold the peak never changes it: bursts at every place in a block, and 200 random clips")
    func skippingChangesNothing() throws {
        var generator = SeededGenerator(seed: 5)
        let peak = try #require(TruePeak(sampleRate: 22_050))
        var clips: [[Float]] = []
        // A burst of alternating samples (its true peak lies between them, up to 11 steps later)
        // ending at every place of a block, blocks of quiet before and after.
        for end in 40..<(40 + 2 * TruePeak.block) {
            var x = (0..<120).map { _ in Float.random(in: -0.01...0.01, using: &generator) }
            for i in (end - 3)...end { x[i] = i % 2 == 0 ? 0.9 : -0.9 }
            clips.append(x)
        }
        for _ in 0..<200 {
            let n = Int.random(in: 1...1_200, using: &generator)
            var x = (0..<n).map { _ in Float.random(in: -0.01...0.01, using: &generator) }
            // A loud stretch (a syllable) and a few lone spikes, anywhere, the ends included.
            let start = Int.random(in: 0..<n, using: &generator)
            for i in start..<min(n, start + Int.random(in: 1...300, using: &generator)) {
                x[i] = Float(sin(Double(i) * 2.6)) * Float.random(in: 0.3...0.9, using: &generator)
            }
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                x[[0, n - 1, Int.random(in: 0..<n, using: &generator)].randomElement(using: &generator)!] = Float.random(in: -1...1, using: &generator)
            }
            clips.append(x)
        }
        for x in clips {
            let fast = x.withUnsafeBufferPointer { peak.peaks(of: $0) }
            #expect(Float(fast.truePeak) == everyStep(x), "\(x.count) samples")
            #expect(Float(fast.sample) == x.map(abs).max())
        }
    }
}

@Suite struct KWeightingTests {
    /// libebur128 measuring the same thing: the span's end to warm its filter, then the span,
    /// read 400 ms at a time from its momentary window and the energies averaged.
    func libebur128(_ pcm: PCM) throws -> Double {
        let span = SpeechGate.measurement.span(of: pcm)
        let rate = pcm.sampleRate
        let meter = try Meter(sampleRate: rate, mode: Int32(bitPattern: EBUR128_MODE_M.rawValue))
        let window = rate * 400 / 1000
        var energy = 0.0
        var counted = 0
        try pcm.samples.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[span])
            var fed = 0
            let warmUp = Int(0.1 * Double(rate))
            while fed < warmUp {
                let part = min(slice.count, warmUp - fed)
                try meter.add(UnsafeBufferPointer(rebasing: slice[(slice.count - part)...]))
                fed += part
            }
            var start = 0
            while start < slice.count {
                let part = min(window, slice.count - start)
                try meter.add(UnsafeBufferPointer(rebasing: slice[start..<(start + part)]))
                let ms = part * 1000 / rate
                if ms > 0 {
                    energy += pow(10, (try meter.window(UInt(ms)) + 0.691) / 10) * Double(part)
                    counted += part
                }
                start += part
            }
        }
        return -0.691 + 10 * log10(energy / Double(counted))
    }

    @Test func ourFilterGivesLibebur128sLoudness() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var clips = try ["cat", "elephant", "ice cream", "umbrella"].map { try spoken($0, in: scratch) }
        clips.append(tone(hertz: 1000, rmsDBFS: -23, seconds: 0.5, sampleRate: 48000))
        clips.append(tone(hertz: 60, rmsDBFS: -20, seconds: 1.2, sampleRate: 44100))
        for pcm in clips {
            let ours = try Loudness.measure(pcm).integratedLUFS
            let reference = try libebur128(pcm)
            // libebur128's windows are whole milliseconds; ours is every sample of the span.
            #expect(abs(ours - reference) < 0.02, "\(ours) against libebur128's \(reference)")
        }
    }
}

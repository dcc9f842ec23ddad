import AudioFile
import ClipProcessing
import Foundation
import Testing

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
        let scratch = try Scratch(); defer { scratch.remove() }
        let word = try spoken("cat", in: scratch)
        let padded = PCM(samples: [Float](repeating: 0, count: 3 * 22050) + word.samples + [Float](repeating: 0, count: 22050),
                         sampleRate: word.sampleRate)
        let a = try Loudness.measure(word), b = try Loudness.measure(padded)
        #expect(abs(a.integratedLUFS - b.integratedLUFS) < 0.05)
        #expect(b.measuredSpan.lowerBound >= 3 * 22050)
    }

    @Test func loudnessFollowsGainExactly() throws {
        let scratch = try Scratch(); defer { scratch.remove() }
        let word = try spoken("umbrella", in: scratch)
        let a = try Loudness.measure(word), b = try Loudness.measure(Variant.scaled(word, dB: -40))
        #expect(abs((a.integratedLUFS - b.integratedLUFS) - 40) < 0.05)
        #expect(abs((a.truePeakDBTP - b.truePeakDBTP) - 40) < 0.05)
    }

    @Test func sameWordAtDifferentSpeakingRatesReadsClose() throws {
        // At 300 words a minute espeak-ng's "cat" lasts 0.17 s: no gating block at all.
        let scratch = try Scratch(); defer { scratch.remove() }
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
        let scratch = try Scratch(); defer { scratch.remove() }
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
        let scratch = try Scratch(); defer { scratch.remove() }
        let word = try spoken("fish", in: scratch)
        let lead = 200 * SpeechGate.frameLength(sampleRate: 22050)   // 2 s, on the 10 ms frame grid
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

import AudioFile
import ClipProcessing
import Foundation
import Testing

/// The figures quoted in the report, printed with the assertions that keep them true.
@Suite struct FiguresTests {
    @Test func spreadAcrossTenWordsBeforeAndAfter() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let processor = ClipProcessor()
        // As the three tiers deliver them: speech at espeak-ng's level and two other pitches,
        // legacy clips 6–40 dB down, one with three seconds of leading silence.
        let offsets: [Double] = [0, -40, -6, -12, 0, -20, -3, -9, -30, 0]
        let pitches: [Int?] = [nil, nil, 20, nil, 80, nil, nil, 30, nil, nil]
        var raw: [Double] = []
        var mixed: [Double] = []
        var after: [Double] = []
        var soxAfter: [Double] = []
        var rows: [String] = []
        for (i, word) in tenWords.enumerated() {
            let speech = try spoken(word, in: scratch, pitch: pitches[i])
            var input = Variant.scaled(speech, dB: offsets[i])
            if i == 4 { input = Variant.silencePrepended(input, seconds: 3) }
            let clip = try processor.process(input)
            let out = try Loudness.measure(clip.pcm)
            let sox = try soxLoudness(PCM(samples: Array(clip.pcm.samples[out.measuredSpan]), sampleRate: clip.pcm.sampleRate), scratch: scratch)
            raw.append(try Loudness.measure(speech).integratedLUFS)
            mixed.append(clip.report.inputLUFS)
            after.append(out.integratedLUFS)
            soxAfter.append(sox)
            rows.append(
                String(
                    format: "%-10@ in %7.2f  gain %+6.2f  out %6.2f  sox %6.2f  TP %5.2f  PLR %5.2f  trimmed %4.0f/%4.0f ms  %.3f s",
                    word, clip.report.inputLUFS, clip.report.gainDB, out.integratedLUFS, sox, out.truePeakDBTP,
                    out.peakToLoudnessRatio, clip.report.trimmedLeadingMS, clip.report.trimmedTrailingMS, clip.report.outputSeconds))
        }
        print(rows.joined(separator: "\n"))
        print(
            String(
                format: "spread: espeak-ng as synthesised %.2f LU; as delivered %.2f LU; after (libebur128) %.2f LU; after (sox) %.2f LU",
                spread(raw), spread(mixed), spread(after), spread(soxAfter)))
        #expect(spread(mixed) > 35)
        #expect(spread(after) < 0.2)
        #expect(spread(soxAfter) < 1)
        #expect(soxAfter.allSatisfy { abs($0 - processor.settings.targetLUFS) <= 1 }, "\(soxAfter)")
    }
}

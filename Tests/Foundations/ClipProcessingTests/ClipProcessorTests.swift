import AudioFile
import ClipProcessing
import Foundation
import Testing

@Suite struct ClipProcessorTests {
    let processor = ClipProcessor()
    var target: Double { processor.settings.targetLUFS }

    /// Index of the first sample at or above the trimming gate's level for this clip.
    func firstLoudSample(_ pcm: PCM) -> Int? {
        let frame = SpeechGate.frameLength(sampleRate: pcm.sampleRate)
        var loudest = 0.0
        for start in stride(from: 0, to: pcm.samples.count, by: frame) {
            let slice = pcm.samples[start..<min(pcm.samples.count, start + frame)]
            loudest = max(loudest, slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count))
        }
        let level = Float((loudest * pow(10, -processor.settings.silence.belowLoudestDB / 10)).squareRoot())
        return pcm.samples.firstIndex { abs($0) >= level }
    }

    @Test func everyWordLandsOnTheTarget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for word in tenWords {
            let clip = try processor.process(spoken(word, in: scratch))
            let measured = try Loudness.measure(clip.pcm)
            #expect(abs(measured.integratedLUFS - target) <= 1, "\(word): \(measured.integratedLUFS) LUFS")
            #expect(abs(clip.report.outputLUFS - measured.integratedLUFS) < 0.001)
            #expect(measured.truePeakDBTP <= processor.settings.peakCeilingDBTP + 0.01, "\(word): \(measured.truePeakDBTP) dBTP")
            #expect(!clip.report.peakLimited)
        }
    }

    @Test func legacyClipAt40dBDownIsRaisedToTheTarget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("pencil", in: scratch)
        // Through a 16-bit file, as a legacy clip arrives: requantised at −40 dB.
        let path = scratch.file("quiet.wav")
        try AudioFile.write(Variant.scaled(word, dB: -40), to: path, format: .wav)
        let quiet = try AudioFile.read(path)
        let clip = try processor.process(quiet)
        #expect(clip.report.inputLUFS < -55)
        #expect(abs(try Loudness.measure(clip.pcm).integratedLUFS - target) <= 1)
        #expect(clip.report.gainDB > 35)
        let normal = try processor.process(word)
        #expect(abs(clip.report.speechInOutput.count - normal.report.speechInOutput.count) <= SpeechGate.frameLength(sampleRate: 22050))
    }

    @Test func threeSecondsOfLeadingSilenceAreRemoved() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("banana", in: scratch)
        let late = Variant.silencePrepended(word, seconds: 3)
        let clip = try processor.process(late)
        let normal = try processor.process(word)
        let margin = Int((processor.settings.leadingMarginMS * 22.05).rounded())
        let frame = SpeechGate.frameLength(sampleRate: 22050)
        // All the silence but the margin goes.
        #expect(abs(clip.report.trimmedLeadingMS - (3000 - processor.settings.leadingMarginMS)) < 50)
        #expect(clip.report.speechInOutput.lowerBound == margin)
        let first = try #require(firstLoudSample(clip.pcm))
        #expect(first <= margin + frame, "first loud sample at \(first), margin \(margin)")
        #expect(first >= margin - frame)
        // The same word is found: same speech length (to a 10 ms frame) and the same loudness.
        #expect(abs(clip.report.speechInOutput.count - normal.report.speechInOutput.count) <= frame)
        #expect(clip.pcm.samples.count - clip.report.speechInOutput.upperBound <= Int((processor.settings.trailingMarginMS * 22.05).rounded()))
        #expect(abs(try Loudness.measure(clip.pcm).integratedLUFS - target) <= 1)
    }

    @Test func outputStartsAndEndsAtZero() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // No leading silence at all: the fade is what stops a click.
        let word = try spoken("school", in: scratch)
        let span = SpeechGate.trimming.span(of: word)
        let abrupt = PCM(samples: Array(word.samples[span]), sampleRate: 22050)
        let clip = try processor.process(abrupt)
        #expect(clip.pcm.samples.first == 0)
        #expect(clip.pcm.samples.last == 0)
        #expect(clip.report.trimmedLeadingMS == 0)
    }

    @Test func sameSamplesGiveTheSameBytesWhateverCameBefore() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let a = try spoken("elephant", in: scratch)
        let b = try spoken("it", in: scratch, pitch: 80)
        let quiet = Variant.scaled(try spoken("zoo", in: scratch), dB: -30)
        let first = try processor.process(a)
        _ = try processor.process(b)
        _ = try processor.process(quiet)
        let again = try processor.process(a)
        #expect(firstDifference(first.pcm, again.pcm) == nil)
        #expect(first.report == again.report)
        // And from several threads at once, interleaved with other clips.
        let outputs = try await withThrowingTaskGroup(of: PCM.self) { group in
            for i in 0..<8 {
                let p = processor
                group.addTask {
                    if i % 2 == 0 { _ = try p.process(i % 4 == 0 ? b : quiet) }
                    return try p.process(a).pcm
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs.count == 8)
        for output in outputs { #expect(firstDifference(first.pcm, output) == nil) }
    }

    @Test func gainIsLimitedAtTheCeilingAndTheAchievedLoudnessReported() throws {
        // A quiet tone with one loud spike: reaching −20 LUFS would put the spike far over −1 dBTP.
        var pcm = tone(hertz: 300, rmsDBFS: -45, seconds: 0.6, sampleRate: 22050)
        pcm.samples[6000] = 0.5
        let clip = try processor.process(pcm)
        let measured = try Loudness.measure(clip.pcm)
        #expect(clip.report.peakLimited)
        #expect(measured.truePeakDBTP <= processor.settings.peakCeilingDBTP + 0.01)
        #expect(measured.truePeakDBTP >= processor.settings.peakCeilingDBTP - 0.1)
        #expect(clip.report.outputLUFS < target - 5)
        #expect(abs(clip.report.outputLUFS - measured.integratedLUFS) < 0.001)
        #expect(abs(clip.report.outputLUFS - (clip.report.inputLUFS + clip.report.gainDB)) < 0.2)
    }

    @Test func silenceIsRefused() throws {
        #expect(throws: ClipProcessingError.self) { try processor.process(Variant.silence(seconds: 1)) }
        // Speech-shaped but at −80 LUFS: raising it would raise its noise.
        let faint = tone(hertz: 300, rmsDBFS: -80, seconds: 0.5, sampleRate: 22050)
        #expect(throws: ClipProcessingError.self) { try processor.process(faint) }
    }

    @Test func settingsOutOfRangeAreRefused() throws {
        var settings = ClipProcessor.Settings()
        settings.peakCeilingDBTP = 1
        #expect(throws: ClipProcessingError.self) { try ClipProcessor(settings: settings).process(tone(hertz: 300, rmsDBFS: -20, seconds: 0.5)) }
        settings = ClipProcessor.Settings()
        settings.fadeMS = -5
        #expect(throws: ClipProcessingError.self) { try ClipProcessor(settings: settings).process(tone(hertz: 300, rmsDBFS: -20, seconds: 0.5)) }
    }

    @Test func otherTargetsAreReachedToo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("fish", in: scratch)
        for lufs in [-16.0, -23.0] {
            var settings = ClipProcessor.Settings()
            settings.targetLUFS = lufs
            let clip = try ClipProcessor(settings: settings).process(word)
            #expect(abs(try Loudness.measure(clip.pcm).integratedLUFS - lufs) <= 1)
        }
    }
}

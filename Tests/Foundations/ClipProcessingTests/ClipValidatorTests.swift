import AudioFile
import ClipProcessing
import Foundation
import Testing

@Suite struct ClipValidatorTests {
    @Test func aNormalRecordingPasses() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for word in ["cat", "umbrella", "ice cream"] {
            let path = try speak(word, to: scratch.file("\(word).wav"))
            let check = try ClipValidator.validate(path: path)
            #expect(check.isAcceptable, "\(word): \(check.problems)")
            #expect(check.headerFrames == check.decodedFrames)
            #expect(check.speechSeconds > 0.1 && check.speechSeconds < check.durationSeconds)
        }
    }

    @Test func aWavCutAt45PercentIsRefusedAsTruncated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try speak("elephant", to: scratch.file("full.wav"))
        let frames = try AudioFile.read(path).samples.count
        let kept = try Variant.truncate(file: path, fraction: 0.45, to: scratch.file("cut.wav"))
        let held = (kept - 44) / 2 // espeak-ng writes a 44-byte header and 16-bit mono samples
        // libsndfile itself decodes the cut file without complaint...
        #expect(try AudioFile.read(scratch.file("cut.wav")).samples.count == held)
        // ...so the header's own count is what gives it away.
        let check = try ClipValidator.validate(path: scratch.file("cut.wav"))
        #expect(!check.isAcceptable)
        #expect(check.problems.first == .truncated(headerFrames: frames, decodedFrames: held))
        let reason = try #require(check.problems.first).description
        print("refused cut.wav:", reason)
        #expect(reason.contains("truncated: header says \(frames) frames, file holds \(held)"), "\(reason)")
    }

    @Test func aFlacCutShortIsRefusedAsTruncated() throws {
        // FLAC states its length in STREAMINFO, which libsndfile reports; decoding stops short.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("umbrella", in: scratch)
        try AudioFile.write(word, to: scratch.file("full.flac"), format: .flac)
        _ = try Variant.truncate(file: scratch.file("full.flac"), fraction: 0.45, to: scratch.file("cut.flac"))
        let check = try ClipValidator.validate(path: scratch.file("cut.flac"))
        print("refused cut.flac:", check.problems.map(\.description))
        guard case .truncated(let header, let decoded)? = check.problems.first else {
            Issue.record("expected truncated, got \(check.problems)")
            return
        }
        #expect(header == word.samples.count)
        #expect(decoded < header)
    }

    @Test func anOggCutShortCannotBeDecoded() throws {
        // libsndfile will not open a cut Ogg stream at all.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try AudioFile.write(try spoken("pencil", in: scratch), to: scratch.file("full.ogg"), format: .ogg)
        _ = try Variant.truncate(file: scratch.file("full.ogg"), fraction: 0.45, to: scratch.file("cut.ogg"))
        let check = try ClipValidator.validate(path: scratch.file("cut.ogg"))
        print("refused cut.ogg:", check.problems.map(\.description))
        guard case .undecodable? = check.problems.first else {
            Issue.record("expected undecodable, got \(check.problems)")
            return
        }
    }

    @Test func aStreamedWavWithoutALengthIsNotMistakenForTruncated() throws {
        // Writers that cannot seek back leave 0xFFFFFFFF as the data size.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try speak("zoo", to: scratch.file("zoo.wav"))
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data[36..<40] == Data("data".utf8))
        data.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        try data.write(to: URL(fileURLWithPath: scratch.file("streamed.wav")))
        let check = try ClipValidator.validate(path: scratch.file("streamed.wav"))
        #expect(check.isAcceptable, "\(check.problems)")
        #expect(check.headerFrames == nil)
    }

    @Test func aClippedRecordingIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("banana", in: scratch)
        try AudioFile.write(Variant.hardClipped(word, gainDB: 30), to: scratch.file("hot.wav"), format: .wav)
        let check = try ClipValidator.validate(path: scratch.file("hot.wav"))
        print("refused hot.wav:", check.problems.map(\.description))
        guard case .clipped(let flat, let fraction, let runs, let longest)? = check.problems.first else {
            Issue.record("expected clipped, got \(check.problems)")
            return
        }
        #expect(fraction > 0.05 && flat > 1000 && runs > 10 && longest > 20)
        #expect(check.problems[0].description.hasPrefix("clipped: "))
        #expect(check.problems[0].description.contains("input level lower"))
    }

    @Test func aRecordingPeakingAtFullScaleIsNotClipped() throws {
        // Peak-normalised to 0 dBFS: one sample touches full scale, nothing is flat.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("fish", in: scratch)
        let loud = Variant.scaled(word, dB: -20 * log10(Double(word.peak)))
        let check = try ClipValidator.validate(pcm: loud)
        #expect(check.isAcceptable, "\(check.problems)")
    }

    @Test func silenceIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try AudioFile.write(Variant.silence(seconds: 2), to: scratch.file("silent.wav"), format: .wav)
        let check = try ClipValidator.validate(path: scratch.file("silent.wav"))
        print("refused silent.wav:", check.problems.map(\.description))
        #expect(check.problems.count == 1)
        guard case .silent? = check.problems.first else {
            Issue.record("expected silent, got \(check.problems)")
            return
        }
        #expect(check.problems[0].description.contains("microphone"))
    }

    @Test func twentySecondsOfSpeechIsRefusedAsTooLong() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = Array(repeating: "The children in the school garden count apples, pears and plums while their teacher reads a story.", count: 4)
            .joined(separator: " ")
        let path = try speak(text, to: scratch.file("long.wav"))
        let check = try ClipValidator.validate(path: path)
        print("refused long.wav:", check.problems.map(\.description))
        #expect(check.durationSeconds >= 20)
        guard case .tooLong(let seconds, let maximum)? = check.problems.first else {
            Issue.record("expected too long, got \(check.problems)")
            return
        }
        #expect(seconds >= 19 && maximum == 10)
        #expect(check.problems[0].description.contains("one word or phrase per file"))
    }

    @Test func aClickIsTooShortToBeAWord() throws {
        let pcm = PCM(
            samples: [Float](repeating: 0, count: 10_000) + tone(hertz: 500, rmsDBFS: -20, seconds: 0.05, sampleRate: 22050).samples
                + [Float](repeating: 0, count: 10_000), sampleRate: 22050)
        let check = try ClipValidator.validate(pcm: pcm)
        print("refused click:", check.problems.map(\.description))
        guard case .tooShort? = check.problems.first else {
            Issue.record("expected too short, got \(check.problems)")
            return
        }
    }

    @Test func threeSecondsOfLeadingSilenceAreFine() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let check = try ClipValidator.validate(pcm: Variant.silencePrepended(spoken("pencil", in: scratch), seconds: 3))
        #expect(check.isAcceptable, "\(check.problems)")
        #expect(check.durationSeconds > 3 && check.speechSeconds < 1)
    }

    @Test func anImplausibleSampleRateIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let slow = tone(hertz: 300, rmsDBFS: -20, seconds: 1, sampleRate: 4000)
        try AudioFile.write(slow, to: scratch.file("slow.wav"), format: .wav)
        let check = try ClipValidator.validate(path: scratch.file("slow.wav"))
        print("refused slow.wav:", check.problems.map(\.description))
        #expect(check.problems == [.implausibleSampleRate(hertz: 4000, allowed: 8_000...192_000)])
    }

    @Test func garbageIsUndecodableNotAThrow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data("this is not audio".utf8).write(to: URL(fileURLWithPath: scratch.file("notes.wav")))
        let check = try ClipValidator.validate(path: scratch.file("notes.wav"))
        print("refused notes.wav:", check.problems.map(\.description))
        guard case .undecodable? = check.problems.first else {
            Issue.record("expected undecodable, got \(check.problems)")
            return
        }
    }

    @Test func severalProblemsAreReportedTogether() throws {
        // Clipped and 20 s long: the teacher hears about both at once.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let word = try spoken("cat", in: scratch)
        var samples: [Float] = []
        while samples.count < 20 * 22050 { samples += word.samples }
        let check = try ClipValidator.validate(pcm: Variant.hardClipped(PCM(samples: samples, sampleRate: 22050), gainDB: 30))
        #expect(check.problems.count == 2)
        #expect(check.problems.contains { if case .tooLong = $0 { true } else { false } })
        #expect(check.problems.contains { if case .clipped = $0 { true } else { false } })
    }
}

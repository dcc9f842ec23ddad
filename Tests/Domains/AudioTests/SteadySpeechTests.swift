import AudioFile
import Foundation
import Speech
import TestSupport
import Testing
import Vocabulary

@testable import Audio

/// The same word gives the same bytes whatever was spoken before it in the process: espeak-ng's
/// generator carries a pitch-flutter index and a glottal-cycle count from word to word, which
/// the steady voice variant switches off (see `EspeakSynthesizer`).
@Suite("Speech is the same whatever was spoken before", .serialized)
struct SteadySpeechTests {
    @Test func theEngineRunsTheSteadyVariant() {
        #expect(sharedSynthesizer.isSteady)
    }

    @Test(arguments: ["cat", "elephant", "ice cream"])
    func aWordAloneAndInsideBatchesOfOtherWordsIsTheSameSamples(_ word: String) async throws {
        let alone = try await sharedSynthesizer.synthesize(word, voice: "en-gb").samples
        var batches: [[Float]] = []
        for batch in [["umbrella", "school"], ["zoo", "banana", "it", "pencil"], ["tomato"]] {
            for other in batch { _ = try await sharedSynthesizer.synthesize(other, voice: "en-gb") }
            // A change of voice in between does not leave anything behind either.
            _ = try await sharedSynthesizer.synthesize("tomato", voice: "en-us")
            batches.append(try await sharedSynthesizer.synthesize(word, voice: "en-gb").samples)
        }
        for samples in batches {
            #expect(samples.count == alone.count, "\(word): \(samples.count) samples against \(alone.count)")
            let same = samples == alone // compared outside #expect, which would print both arrays
            #expect(same, "\(word): differs at sample \(zip(samples, alone).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        }
    }

    @Test func theStoredClipIsTheSameBytesWhateverWasRenderedBefore() async throws {
        let dir = try TemporaryDirectory("steady-bytes")
        defer { dir.remove() }
        let pronouncer = Pronouncer(sources: [SynthesizedClipSource(synthesizer: sharedSynthesizer)])
        let cat = ClipRequest(word: "cat", accent: .british, entry: EntryReference(.catalog, "animals/cat"))
        var files: [[UInt8]] = []
        for (index, before) in [[], ["dog", "elephant"], ["umbrella", "it", "fish", "zoo", "banana"]].enumerated() {
            for word in before { _ = try await pronouncer.pronounce(ClipRequest(word: word, accent: .british)) }
            let store = ClipStore(root: dir.file("run\(index)"))
            let stored = try store.save(try await pronouncer.pronounce(cat), key: cat.key(format: .wav), word: "cat", inputs: "")
            files.append(Array(try Data(contentsOf: URL(fileURLWithPath: stored.path))))
        }
        #expect(files[0].count > 1000)
        let same = files.map { $0 == files[0] }
        #expect(same == [true, true, true])
    }
}

@Suite("Clip records inside the clips")
struct ClipRecordTests {
    @Test func aRecordReadsBackFromTheClipItDescribes() throws {
        let dir = try TemporaryDirectory("record")
        defer { dir.remove() }
        let record = ClipRecord(
            word: "say \"cheese\" \\ 行", entry: EntryReference(.moe, "行"), accent: .mandarin, tier: .legacy,
            source: "/a/b\tc\nd\u{1}", duration: 0.348, inputs: "clips-2\u{1F}tts=x", reading: "háng")
        #expect(try JSONDecoder().decode(ClipRecord.self, from: Data(record.json.utf8)) == record)
        for format in AudioFormat.allCases {
            let path = dir.file("clip.\(format.fileExtension)")
            try AudioFile.write(tone(), to: path, format: format, comment: record.json)
            #expect(ClipStore.record(of: path) == record, "\(format)")
            #expect(abs(try AudioFile.inspect(path).duration - 0.4) < 0.02)
        }
    }
}

@Suite("Render manifest")
struct RenderManifestTests {
    @Test func theHandWrittenJSONIsWhatJSONEncoderWrites() throws {
        let job = RenderJob(entry: EntryReference(.catalog, "food/ice-cream"), word: "ice \"cream\"", accent: .american, references: nil, format: .wav)
        let moe = RenderJob(entry: EntryReference(.moe, "行"), word: "行", accent: .mandarin, references: nil, format: .ogg, reading: "háng")
        let results = [
            RenderResult(
                job: job, status: .rendered, path: "/a/b/ice-cream.wav", tier: .tts, source: "espeak-ng en-us", duration: 0.348,
                skipped: [
                    TierSkip(tier: .recorded, reason: "no recorded clip", isAbsence: true),
                    TierSkip(tier: .legacy, reason: "truncated: 1\\2\n", isAbsence: false),
                ]),
            RenderResult(job: moe, status: .kept, path: "/a/行/hang2.ogg", tier: .legacy, source: "/Audio/legacy/行.wav", duration: 1.5),
            RenderResult(job: job, status: .failed, path: "/x.wav", error: "worker exited\twith status 9 \u{1}"),
            RenderResult(job: moe, status: .rendered, path: "/a/行/hang2.ogg", tier: .tts, source: "espeak-ng", duration: 2, skipped: []),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for list in [results, []] {
            let reference = String(decoding: try encoder.encode(list), as: UTF8.self)
            #expect(RenderManifest.json(list) == reference)
        }
    }
}

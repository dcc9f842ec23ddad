import AudioFile
@testable import Audio
import Foundation
import Speech
import TestSupport
import Testing
import Vocabulary

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
            let same = samples == alone   // compared outside #expect, which would print both arrays
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

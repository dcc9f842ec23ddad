import AudioFile
import ClipProcessing
import Foundation
import Speech
import TestSupport
import Testing
import Vocabulary

@testable import Audio

/// The neural voice the project installs (`scripts/install-deps`, run by `make test`).
let installedNeuralVoice: NeuralVoice = {
    switch NeuralVoice.locate(Repository.root + "/neural-voice") {
    case .success(let voice): return voice
    case .failure(let error): fatalError("the neural voice should be installed by make test: \(error)")
    }
}()

/// One synthesizer (one Python process) shared by the suite: the model loads once.
let sharedNeuralSynthesizer = NeuralSynthesizer(voice: installedNeuralVoice)

@Suite("The neural tier: hibari's voice in both accents, between legacy and espeak-ng", .serialized)
struct NeuralVoiceTests {
    let dir: TemporaryDirectory
    var audioRoot: String { dir.file("Audio") }

    init() throws {
        dir = try TemporaryDirectory("neural")
        try FileManager.default.createDirectory(atPath: dir.file("Audio/legacy/british"), withIntermediateDirectories: true)
    }

    func pronouncer(neural: any ClipSource = NeuralClipSource(synthesizer: sharedNeuralSynthesizer)) -> Pronouncer {
        Pronouncer(sources: [LegacyClipSource(audioRoot: audioRoot), neural, SynthesizedClipSource(synthesizer: sharedSynthesizer)])
    }

    @Test func anEnglishWordWithoutAClipIsSpokenByTheNeuralVoiceTrimmedAndNormalised() async throws {
        for accent in Accent.english {
            let p = try await pronouncer().pronounce(ClipRequest(word: "elephant", accent: accent))
            #expect(p.clip.tier == .neural)
            #expect(p.clip.pcm.sampleRate == 24_000)
            #expect(p.skipped.map(\.tier) == [.legacy])
            #expect(abs(try Loudness.measure(p.clip.pcm).integratedLUFS - -20) <= 1, "normalised like every clip")
            // hibari leaves ~0.28 s of silence at each end; the clip keeps only the speech.
            #expect(p.clip.pcm.duration > 0.3 && p.clip.pcm.duration < 1.0, "\(p.clip.pcm.duration)")
        }
    }

    @Test func theSourceSaysHonestlyWhichVoiceAndPronunciation() async throws {
        let british = try await pronouncer().pronounce(ClipRequest(word: "dance", accent: .british))
        let american = try await pronouncer().pronounce(ClipRequest(word: "dance", accent: .american))
        #expect(british.clip.source == "hibari-tts 0.2.1 heart (neural, American voice, British pronunciation)")
        #expect(american.clip.source == "hibari-tts 0.2.1 heart (neural, American voice)")
        // The British lexicon says "dance" with the vowel of "father", the American with that of "cat".
        let gb = try sharedNeuralSynthesizer.synthesizeNow("dance", british: true)
        let us = try sharedNeuralSynthesizer.synthesizeNow("dance", british: false)
        #expect(gb.phonemes.contains("ɑ") && us.phonemes.contains("æ"), "\(gb.phonemes) / \(us.phonemes)")
        #expect(!gb.phonemes.contains(where: { "ɒQːa".contains($0) }), "British-only symbols are mapped to the voice's own: \(gb.phonemes)")
    }

    @Test func aLegacyClipStillWinsOverTheVoice() async throws {
        try AudioFile.write(tone(seconds: 0.3), to: dir.file("Audio/legacy/british/cat.wav"), format: .wav)
        let p = try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british))
        #expect(p.clip.tier == .legacy)
    }

    @Test func theSameTextGivesTheSameSamplesWhateverWasSpokenBeforeAndInAnotherProcess() async throws {
        let alone = try sharedNeuralSynthesizer.synthesizeNow("ice cream", british: false).samples
        for word in ["elephant", "a very long sentence about nothing in particular", "orange"] {
            _ = try sharedNeuralSynthesizer.synthesizeNow(word, british: true)
        }
        let after = try sharedNeuralSynthesizer.synthesizeNow("ice cream", british: false).samples
        let other = NeuralSynthesizer(voice: installedNeuralVoice)
        defer { other.stop() }
        let elsewhere = try other.synthesizeNow("ice cream", british: false).samples
        #expect(alone == after)
        #expect(alone == elsewhere)
    }

    /// Asked to slow down itself, the voice slurs (Whisper understood 73 % of 150 words at 0.75
    /// against 81 % at its own pace): a slower clip is the normal one stretched in time instead.
    @Test func aSlowerPaceIsTheVoicesOwnClipStretchedInTime() async throws {
        let request = ClipRequest(word: "butterfly", accent: .american)
        let normal = try await NeuralClipSource(synthesizer: sharedNeuralSynthesizer).clip(for: request)
        var slower = request
        slower.speed = 0.75
        let slow = try await NeuralClipSource(synthesizer: sharedNeuralSynthesizer).clip(for: slower)
        #expect(slow.pcm.samples == TimeStretch.stretch(normal.pcm, speed: 0.75).samples)
    }

    @Test func aSlowerPaceIsLongerAndAClipOfItsOwn() async throws {
        let normal = try await pronouncer().pronounce(ClipRequest(word: "butterfly", accent: .american))
        let slow = try await pronouncer().pronounce(ClipRequest(word: "butterfly", accent: .american, speed: 0.75))
        #expect(slow.clip.tier == .neural)
        #expect(slow.clip.pcm.duration > normal.clip.pcm.duration * 1.2, "\(slow.clip.pcm.duration) vs \(normal.clip.pcm.duration)")
        let key = ClipRequest(word: "butterfly", accent: .american, entry: EntryReference(.catalog, "animals/butterfly"), speed: 0.75).key(format: .wav)
        #expect(key.relativePath == "american/catalog/animals/butterfly@0.75.wav")
        #expect(
            pronouncer().inputs(of: ClipRequest(word: "butterfly", accent: .american, speed: 0.75))
                != pronouncer().inputs(of: ClipRequest(word: "butterfly", accent: .american)))
        // espeak-ng speaks slower too, where it is the tier that answers.
        let espeakNormal = try await pronouncer(neural: UnavailableClipSource(tier: .neural, reason: "off")).pronounce(
            ClipRequest(word: "butterfly", accent: .british))
        let espeakSlow = try await pronouncer(neural: UnavailableClipSource(tier: .neural, reason: "off"))
            .pronounce(ClipRequest(word: "butterfly", accent: .british, speed: 0.75))
        #expect(espeakSlow.clip.tier == .tts)
        #expect(espeakSlow.clip.pcm.duration > espeakNormal.clip.pcm.duration * 1.15)
    }

    @Test func aRecordingIsNotStretchedToAnotherPace() async throws {
        try AudioFile.write(tone(seconds: 0.3), to: dir.file("Audio/legacy/british/cat.wav"), format: .wav)
        let p = try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british, speed: 0.75))
        #expect(p.clip.tier == .neural)
        #expect(p.skipped.first?.reason.contains("pace they were recorded") == true, "\(p.skipped)")
    }

    @Test func mandarinIsLeftToEspeakNgsPinyinVoice() async throws {
        let p = try await pronouncer().pronounce(ClipRequest(word: "行", accent: .mandarin, reading: "xíng", spoken: "xíng"))
        #expect(p.clip.tier == .tts)
        #expect(p.skipped.contains { $0.tier == .neural && $0.isAbsence && $0.reason.contains("English") })
    }

    @Test func aMissingInstallationIsSkippedWithItsReasonAndEspeakNgSpeaks() async throws {
        guard case .failure(let error) = NeuralVoice.locate(dir.file("nowhere")) else {
            Issue.record("an empty folder is no installation")
            return
        }
        #expect(error.description.contains("not installed"))
        let p = try await pronouncer(neural: UnavailableClipSource(tier: .neural, reason: error.description))
            .pronounce(ClipRequest(word: "dog", accent: .british))
        #expect(p.clip.tier == .tts)
        #expect(p.skipped.contains { $0.tier == .neural && $0.reason.contains("not installed") })
    }

    @Test func aVoiceThatCannotStartFallsBackAndIsNotRetriedForEveryWord() async throws {
        // An environment whose Python exits at once: a broken installation.
        let broken = dir.file("broken-voice")
        try FileManager.default.createDirectory(atPath: broken + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: broken + "/lib/python3.11/site-packages/hibari_tts-0.2.1.dist-info",
            withIntermediateDirectories: true)
        try "#!/bin/sh\nexit 7\n".write(toFile: broken + "/bin/python3", atomically: true, encoding: .utf8)
        chmod(broken + "/bin/python3", 0o755)
        let voice = try NeuralVoice.locate(broken).get()
        let synthesizer = NeuralSynthesizer(voice: voice)
        let p = try await pronouncer(neural: NeuralClipSource(synthesizer: synthesizer)).pronounce(ClipRequest(word: "dog", accent: .british))
        #expect(p.clip.tier == .tts)
        let skip = try #require(p.skipped.first { $0.tier == .neural })
        #expect(!skip.isAbsence, "a voice that is there but broken is reported as broken")
        #expect(skip.reason.contains("exit status 7"), "\(skip.reason)")
        let started = Date()
        let again = try await pronouncer(neural: NeuralClipSource(synthesizer: synthesizer)).pronounce(ClipRequest(word: "cat", accent: .british))
        #expect(again.clip.tier == .tts)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(synthesizer.processIDs.isEmpty)
    }

    @Test func aProcessKilledMidBatchFailsOneWordThenTheNextStartsAnother() async throws {
        let synthesizer = NeuralSynthesizer(voice: installedNeuralVoice)
        defer { synthesizer.stop() }
        let expected = try synthesizer.synthesizeNow("rabbit", british: false).samples
        let pid = try #require(synthesizer.processIDs.first)
        kill(pid, SIGKILL)
        let source = NeuralClipSource(synthesizer: synthesizer)
        let p = try await pronouncer(neural: source).pronounce(ClipRequest(word: "rabbit", accent: .american))
        #expect(p.clip.tier == .tts, "the word spoken when the process died falls back to espeak-ng")
        let skip = try #require(p.skipped.first { $0.tier == .neural })
        #expect(skip.reason.contains("process"), "\(skip.reason)")
        #expect(!skip.isAbsence)
        // The next word starts a new process, which says it as before.
        #expect(try synthesizer.synthesizeNow("rabbit", british: false).samples == expected)
        #expect(synthesizer.processIDs.first != pid)
    }

    @Test func aTextTheVoiceCannotSayFallsBackAndTheProcessGoesOn() async throws {
        let synthesizer = NeuralSynthesizer(voice: installedNeuralVoice)
        defer { synthesizer.stop() }
        _ = try synthesizer.synthesizeNow("cat", british: true)
        let pid = synthesizer.processIDs.first
        // An emoji has no spelling-to-sound rule: the voice has nothing to say.
        let p = try await pronouncer(neural: NeuralClipSource(synthesizer: synthesizer)).pronounce(ClipRequest(word: "😀", accent: .british))
        #expect(p.clip.tier == .tts)
        let skip = try #require(p.skipped.first { $0.tier == .neural })
        #expect(skip.reason.contains("no sounds to speak"), "\(skip.reason)")
        #expect(skip.isAbsence, "the voice works; it has nothing for this text (so the clip is kept, not tried again)")
        #expect(synthesizer.processIDs.first == pid, "one text it cannot say does not cost the process")
        #expect(try synthesizer.synthesizeNow("dog", british: true).samples.count > 0)
    }

    @Test func aClipMadeAfterTheVoiceFailedIsStaleSoTheVoiceIsTriedAgain() throws {
        let store = ClipStore(root: dir.file("clips"))
        let request = ClipRequest(word: "dog", accent: .british, entry: EntryReference(.catalog, "animals/dog"))
        let key = request.key(format: .wav)
        let clip = ResolvedClip(tier: .tts, source: "espeak-ng en-gb", pcm: tone())
        try store.save(
            Pronunciation(request: request, clip: clip, skipped: [TierSkip(tier: .neural, reason: "the process stopped")]),
            key: key, word: "dog", inputs: "inputs")
        #expect(store.stored(key, inputs: "inputs") == nil)
        try store.save(
            Pronunciation(request: request, clip: clip, skipped: [TierSkip(tier: .neural, reason: "not installed", isAbsence: true)]),
            key: key, word: "dog", inputs: "inputs")
        #expect(store.stored(key, inputs: "inputs") != nil)
    }

    @Test func installingOrRemovingTheVoiceMakesEnglishClipsStale() {
        let request = ClipRequest(word: "cat", accent: .british)
        let with = pronouncer().inputs(of: request)
        let without = pronouncer(neural: UnavailableClipSource(tier: .neural, reason: "not installed")).inputs(of: request)
        #expect(with != without)
        #expect(with.contains(installedNeuralVoice.identity))
    }
}

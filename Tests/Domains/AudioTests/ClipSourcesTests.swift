import AudioFile
import ClipProcessing
import Foundation
import HTTPFetch
import TestSupport
import Testing
import Vocabulary

@testable import Audio

/// Recorded and legacy clips on real files: how they are found, what is refused, and how a
/// change to them is noticed.
@Suite("Recorded and legacy clips: names, truncation, containment, freshness", .serialized)
struct ClipSourcesTests {
    let dir: TemporaryDirectory
    var audioRoot: String { dir.file("Audio") }

    init() throws {
        dir = try TemporaryDirectory("clip-sources")
        try FileManager.default.createDirectory(atPath: dir.file("Audio/legacy/british"), withIntermediateDirectories: true)
    }

    func pronouncer() -> Pronouncer {
        Pronouncer(sources: [
            RecordedClipSource(audioRoot: audioRoot, cacheDirectory: dir.file("cache"), http: CurlHTTPClient()),
            LegacyClipSource(audioRoot: audioRoot),
            SynthesizedClipSource(synthesizer: sharedSynthesizer),
        ])
    }

    func request(_ word: String, _ id: String? = nil, references: AudioReferences? = nil, accent: Accent = .british) -> ClipRequest {
        ClipRequest(word: word, accent: accent, references: references, entry: EntryReference(.catalog, id ?? "animals/\(word)"))
    }

    @Test(arguments: [
        ("sheep", "Sheep.wav"), ("ice cream", "ice-cream.wav"), ("bus stop", "bus stop.wav"), ("café", "café.wav"),
        ("spider", "spider.WAV"), ("o'clock", "O’Clock.wav"), ("T-shirt", "t_shirt.ogg"),
    ])
    func legacyFilesAreFoundWhateverTheSpellingOfTheirName(_ word: String, _ file: String) async throws {
        let path = dir.file("Audio/legacy/british/\(file)")
        if file.hasSuffix(".ogg") {
            try Recordings.make(word, at: path + ".wav")
            try AudioFile.write(try AudioFile.read(path + ".wav"), to: path, format: .ogg)
            try FileManager.default.removeItem(atPath: path + ".wav")
        } else {
            try Recordings.make(word, at: path)
        }
        let p = try await pronouncer().pronounce(request(word))
        #expect(p.clip.tier == .legacy, "\(p.skipped)")
        #expect(p.clip.source.hasSuffix("/legacy/british/\(file)"))
    }

    @Test func twoFilesForOneWordAreNotGuessedBetween() async throws {
        try Recordings.make("sheep", at: dir.file("Audio/legacy/british/Sheep.wav"))
        try Recordings.make("sheep", at: dir.file("Audio/legacy/british/sheep.wav"))
        let p = try await pronouncer().pronounce(request("sheep"))
        #expect(p.clip.tier == .tts)
        let reason = try #require(p.skipped.first { $0.tier == .legacy }).reason
        #expect(reason.contains("several legacy clips could be 'sheep': Sheep.wav, sheep.wav"), "\(reason)")
        #expect(p.skipped.first { $0.tier == .legacy }?.isAbsence == false)

        // The same name in two formats is one clip, in the usual order of preference.
        try FileManager.default.removeItem(atPath: dir.file("Audio/legacy/british/Sheep.wav"))
        try AudioFile.write(try AudioFile.read(dir.file("Audio/legacy/british/sheep.wav")), to: dir.file("Audio/legacy/british/sheep.flac"), format: .flac)
        let again = try await pronouncer().pronounce(request("sheep"))
        #expect(again.clip.source.hasSuffix("/sheep.wav"))
    }

    @Test func anImportedClipComesBeforeReferencesAndNames() async throws {
        try Recordings.make("cat", at: dir.file("Audio/legacy/british/cat.wav"), pitch: 20)
        try Recordings.make("cat", at: dir.file("Audio/recorded/cat-old.wav"), pitch: 30)
        let refs = AudioReferences(recorded: "recorded/cat-old.wav")
        #expect(try await pronouncer().pronounce(request("cat", references: refs)).clip.source.hasSuffix("recorded/cat-old.wav"))
        let imported = dir.file("Audio/" + ImportedClips.relativePath(tier: .recorded, entry: EntryReference(.catalog, "animals/cat"), accent: .british))
        #expect(imported.hasSuffix("Audio/recorded/british/catalog/animals/cat.wav"))
        try Recordings.make("cat", at: imported, pitch: 90)
        let p = try await pronouncer().pronounce(request("cat", references: refs))
        #expect(p.clip.tier == .recorded)
        #expect(p.clip.source.hasSuffix("recorded/british/catalog/animals/cat.wav"))
    }

    @Test func aTruncatedWavIsNeverServed() async throws {
        let path = try Recordings.make("elephant", at: dir.file("Audio/recorded/elephant.wav"))
        let whole = try AudioFile.read(path).samples.count
        try Recordings.truncate(path, to: 0.45)
        // libsndfile alone reads the first 45 % without complaint...
        #expect(try AudioFile.read(path).samples.count < whole / 2)
        // ...but the tiers compare it with its header and fall through.
        let p = try await pronouncer().pronounce(request("elephant", references: AudioReferences(recorded: "recorded/elephant.wav")))
        #expect(p.clip.tier == .tts)
        let reason = try #require(p.skipped.first { $0.tier == .recorded }).reason
        #expect(reason.contains("truncated: the header says \(whole) frames"), "\(reason)")
    }

    @Test func referencesStayInsideTheAudioFolder() async throws {
        let outside = try Recordings.make("cat", at: dir.file("elsewhere/cat.wav"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("Audio/legacy/british/cat.wav"), withDestinationPath: outside)
        for reference in [outside, "../elsewhere/cat.wav", "legacy/british/cat.wav"] {
            let p = try await pronouncer().pronounce(request("cat", references: AudioReferences(recorded: reference)))
            #expect(p.clip.tier == .tts, "\(reference) was served")
        }
    }

    @Test func theFingerprintFollowsEveryChangeToAClipSource() throws {
        let planner = Pronouncer(sources: [
            RecordedClipSource(audioRoot: audioRoot, cacheDirectory: dir.file("cache"), http: CurlHTTPClient()),
            LegacyClipSource(audioRoot: audioRoot),
        ])
        let cat = request("cat")
        let nothing = planner.inputs(of: cat)
        #expect(planner.inputs(of: cat) == nothing, "the same sources give the same fingerprint")
        let legacy = dir.file("Audio/legacy/british/Cat.wav")
        try Recordings.make("cat", at: legacy, pitch: 20)
        let added = planner.inputs(of: cat)
        #expect(added != nothing)
        try Recordings.make("cat", at: legacy, pitch: 40) // replaced by another recording
        let replaced = planner.inputs(of: cat)
        #expect(replaced != added)
        try FileManager.default.removeItem(atPath: legacy)
        #expect(planner.inputs(of: cat) == nothing)
        // An import for the entry, and a reference in its category file, count too.
        try Recordings.make("cat", at: dir.file("Audio/recorded/british/catalog/animals/cat.wav"))
        #expect(planner.inputs(of: cat) != nothing)
        #expect(planner.inputs(of: request("cat", references: AudioReferences(recorded: "x.wav"))) != planner.inputs(of: cat))
        // Another word's clip does not.
        let before = planner.inputs(of: request("dog"))
        try Recordings.make("bird", at: dir.file("Audio/legacy/british/bird.wav"))
        #expect(planner.inputs(of: request("dog")) == before)
    }

    @Test func theStoreKeepsAClipOnlyWhileItsInputsAreTheSame() async throws {
        let store = ClipStore(root: dir.file("clips"))
        let p = pronouncer()
        let cat = request("cat")
        let key = cat.key(format: .wav)
        try store.save(try await p.pronounce(cat), key: key, word: "cat", inputs: p.inputs(of: cat))
        #expect(store.stored(key, inputs: p.inputs(of: cat))?.record.tier == .tts)
        try Recordings.make("cat", at: dir.file("Audio/legacy/british/cat.wav"))
        #expect(store.stored(key, inputs: p.inputs(of: cat)) == nil, "a new legacy clip makes the speech clip stale")
    }

    @Test func everyTierComesOutTrimmedAtTheSameLoudness() async throws {
        // A recording 30 dB down, a legacy clip 40 dB down after three seconds of silence, speech.
        try Recordings.make("cat", at: dir.file("Audio/recorded/cat.wav"), pitch: 80, gainDB: -30)
        try Recordings.make("dog", at: dir.file("Audio/legacy/british/dog.wav"), pitch: 20, gainDB: -40, leadingSilence: 3)
        let before = try [dir.file("Audio/recorded/cat.wav"), dir.file("Audio/legacy/british/dog.wav")].map {
            try Loudness.measure(AudioFile.read($0)).integratedLUFS
        }
        let clips = [
            try await pronouncer().pronounce(request("cat", references: AudioReferences(recorded: "recorded/cat.wav"))).clip,
            try await pronouncer().pronounce(request("dog")).clip,
            try await pronouncer().pronounce(request("elephant")).clip,
        ]
        #expect(clips.map(\.tier) == [.recorded, .legacy, .tts])
        let after = try clips.map { try Loudness.measure($0.pcm).integratedLUFS }
        print("loudness before: \(before.map { String(format: "%.1f", $0) }) LUFS; after: \(after.map { String(format: "%.2f", $0) }) LUFS")
        #expect(before.max()! - before.min()! > 9)
        for lufs in after { #expect(abs(lufs - -20) <= 1, "\(after)") }
        // The three seconds of silence are gone (40 ms of margin stays).
        #expect(clips[1].pcm.duration < 1.2, "\(clips[1].pcm.duration) s")
        for clip in clips { #expect(clip.pcm.samples.first == 0 && clip.pcm.samples.last == 0, "faded in and out") }
    }
}

import App
import AppCore
import Audio
import Foundation
import Mandarin
import Speech
import TestSupport
import Testing

/// The clip service as `say` and the server use it: a clip is made once, then served until one
/// of its sources changes; Mandarin titles are spoken in the reading asked for.
@Suite("Clip service: freshness and Mandarin readings", .serialized)
struct ClipServiceTests {
    let dir: TemporaryDirectory
    let app: VocabApp

    init() throws {
        // One speech engine per process, on a data folder that outlives this test's home.
        _ = try EspeakSynthesizer(dataDirectory: NSTemporaryDirectory() + "vocab-audio-tests-speech")
        dir = try TemporaryDirectory("clip-service")
        try CatalogFixture.small(in: dir)
        app = try VocabApp(
            environment: VocabEnvironment(
                categoriesDirectory: dir.file("Categories"), audioDirectory: dir.file("Audio"),
                home: HomeLayout(root: dir.file("home"))),
            database: .embedded, use: .command)
    }

    /// A recording made by the espeak-ng program (another voice than vocab's own).
    func record(_ word: String, at relative: String, pitch: Int) throws {
        let path = dir.file("Audio/" + relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try runProcess("/usr/bin/espeak-ng", ["-v", "en-gb", "-p", String(pitch), "-w", path, word])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aClipIsMadeAgainWhenASourceIsAddedReplacedOrRemoved() async throws {
        let catalog = try await app.catalog()
        let clips = app.audio.clips().service
        let (cat, _) = await app.audio.subject("cat", accent: .british, catalog: catalog)

        let first = try await clips.clip(for: cat, format: .wav)
        #expect(first.rendered && first.clip.record.tier == .tts)
        let again = try await clips.clip(for: cat, format: .wav)
        #expect(!again.rendered, "nothing changed: the stored clip answers")

        try record("cat", at: "legacy/british/Cat.wav", pitch: 20)
        let added = try await clips.clip(for: cat, format: .wav)
        #expect(added.rendered && added.clip.record.tier == .legacy)
        let addedBytes = try Data(contentsOf: URL(fileURLWithPath: added.clip.path))

        try record("cat", at: "legacy/british/Cat.wav", pitch: 90)
        let replaced = try await clips.clip(for: cat, format: .wav)
        #expect(replaced.rendered && replaced.clip.record.tier == .legacy)
        #expect(try Data(contentsOf: URL(fileURLWithPath: replaced.clip.path)) != addedBytes)

        try FileManager.default.removeItem(atPath: dir.file("Audio/legacy/british/Cat.wav"))
        let removed = try await clips.clip(for: cat, format: .wav)
        #expect(removed.rendered && removed.clip.record.tier == .tts)

        // Another word's clip is not touched by any of this.
        let (dog, _) = await app.audio.subject("dog", accent: .british, catalog: catalog)
        _ = try await clips.clip(for: dog, format: .wav)
        try record("cat", at: "legacy/british/cat.wav", pitch: 20)
        #expect(try await !clips.clip(for: dog, format: .wav).rendered)
    }

    @Test func mandarinTitlesAreSpokenInTheReadingAskedFor() async throws {
        let sample = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json"
        try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        _ = try MOEImporter(databasePath: app.environment.home.moeDatabase).importFile(at: sample)
        let dictionary = try app.moe()

        let first = try MandarinClips.request(title: "行", reading: nil, dictionary: dictionary)
        #expect(first.reading == "xíng" && first.spoken == "xíng" && first.isFirstReading)
        #expect(first.accent == .mandarin)
        #expect(first.key(format: .wav).relativePath == "mandarin/moe/行/xing2.wav")
        let hang = try MandarinClips.request(title: "行", reading: "hang2", dictionary: dictionary)
        #expect(hang.reading == "háng" && !hang.isFirstReading)
        #expect(try MandarinClips.request(title: "行", reading: "HÁNG", dictionary: dictionary).reading == "háng")
        #expect(throws: Failure.self) { try MandarinClips.request(title: "行", reading: "hang7", dictionary: dictionary) }
        do {
            _ = try MandarinClips.request(title: "行", reading: "hang7", dictionary: dictionary)
        } catch let failure as Failure {
            #expect(failure.code == .unknownReading)
            #expect(failure.suggestions == ["xíng", "háng", "xìng", "hàng"])
        }

        let clips = app.audio.clips().service
        let spoken = try await clips.clip(for: hang, format: .wav)
        #expect(spoken.clip.record.tier == .tts)
        #expect(spoken.clip.record.source == "espeak-ng cmn-latn-pinyin")
        #expect(spoken.clip.record.entry == "moe:行")
        #expect(spoken.clip.record.reading == "háng")
        #expect(spoken.clip.path.hasSuffix("clips/mandarin/moe/行/hang2.wav"))
    }
}

import AudioFile
@testable import Audio
import Foundation
import TestSupport
import Testing
import Vocabulary

@Suite("Clips are filed by the identity of their entry")
struct ClipStoreTests {
    func path(_ source: EntryReference.Source, _ id: String, _ accent: Accent = .british) -> String {
        ClipKey(entry: EntryReference(source, id), accent: accent, format: .wav).relativePath
    }

    @Test("entries that used to share a file name each get their own")
    func distinctNames() {
        let pairs: [(EntryReference.Source, String, String)] = [
            (.text, "行", "水"),
            (.catalog, "places-and-directions/café", "places-and-directions/cafe"),
            (.text, "ice cream", "ice-cream"),
            (.text, "o'clock", "o’clock"),
            (.text, "a.m.", "am"),
            (.catalog, "time/may", "everyday-words/may"),
            (.text, "May", "may"),
        ]
        for (source, a, b) in pairs {
            #expect(path(source, a) != path(source, b), "\(a) / \(b)")
        }
        #expect(path(.catalog, "animals/cat") == "british/catalog/animals/cat.wav")
        #expect(path(.catalog, "animals/cat", .american) == "american/catalog/animals/cat.wav")
        #expect(path(.text, "hello").hasPrefix("british/text/hello-"))
        // Nothing a text holds can climb out of the store or hide a file.
        for text in ["..", ".", "../../etc/passwd", "/", "a/b", ".hidden", "行"] {
            let p = path(.text, text)
            #expect(!p.split(separator: "/").contains { $0 == ".." || $0 == "." || $0.hasPrefix(".") }, "\(text) → \(p)")
            #expect(p.split(separator: "/").count == 3, "\(text) → \(p)")
        }
        #expect(!path(.text, "行").contains("/clip-") || path(.text, "行") != path(.text, "水"))
    }

    @Test("a stored clip is found again only while its inputs are the same")
    func storedClipsFollowTheirInputs() async throws {
        let dir = try TemporaryDirectory("clip-store")
        defer { dir.remove() }
        let store = ClipStore(root: dir.file("clips"))
        let key = ClipKey(entry: EntryReference(.catalog, "animals/cat"), accent: .british, format: .wav)
        let request = ClipRequest(word: "cat", accent: .british, references: AudioReferences(recorded: "recorded/cat.wav"))
        let samples = (0..<8000).map { Float(0.5 * sin(Double($0) * 0.1)) }
        let pronunciation = Pronunciation(request: request, clip: ResolvedClip(tier: .recorded, source: "recorded/cat.wav",
                                                                               pcm: PCM(samples: samples, sampleRate: 16_000)), skipped: [])
        let saved = try store.save(pronunciation, key: key, word: "cat", inputs: ClipStore.inputs(of: request))
        #expect(saved.path == dir.file("clips/british/catalog/animals/cat.wav"))
        #expect(store.stored(key, inputs: ClipStore.inputs(of: request))?.record.tier == .recorded)
        let changed = ClipRequest(word: "cat", accent: .british, references: AudioReferences(recorded: "recorded/cat-new.wav"))
        #expect(store.stored(key, inputs: ClipStore.inputs(of: changed)) == nil, "a new recording makes the clip stale")
    }

    @Test("legacy clips of words without Latin letters are looked up by the word itself, not a shared name")
    func legacyNames() {
        #expect(ClipNaming.legacyName(for: "行") != ClipNaming.legacyName(for: "水"))
        #expect(ClipNaming.legacyName(for: "ice cream") == "ice_cream")
        #expect(ClipNaming.legacyPaths(for: "行", accent: .british).first == "british/行.wav")
    }
}

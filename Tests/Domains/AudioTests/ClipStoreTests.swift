import AudioFile
import Foundation
import HTTPFetch
import TestSupport
import Testing
import Vocabulary

@testable import Audio

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

    @Test("a catalog id is its own path when every part is a plain name; otherwise each part is made safe")
    func catalogIdsAsPaths() {
        for id in ["animals/cat", "everyday-words/ice_cream", "a", "A-Z/0-9"] {
            #expect(path(.catalog, id) == "british/catalog/\(id).wav")
        }
        let made: [(String, String)] = [
            ("", "%00"), ("/", "%00/%00"), ("/a", "%00/a"), ("a/", "a/%00"), ("a//b", "a/%00/b"),
            ("places/café", "places/café"), ("a b/c", "a%20b/c"), ("x/o'clock", "x/o%27clock"),
            ("../etc", "%2E%2E/etc"), ("a/.hidden", "a/%2Ehidden"),
        ]
        for (id, name) in made {
            #expect(path(.catalog, id) == "british/catalog/\(name).wav", "\(id)")
        }
    }

    @Test("a stored clip is found again only while its inputs are the same")
    func storedClipsFollowTheirInputs() async throws {
        let dir = try TemporaryDirectory("clip-store")
        defer { dir.remove() }
        let store = ClipStore(root: dir.file("clips"))
        let key = ClipKey(entry: EntryReference(.catalog, "animals/cat"), accent: .british, format: .wav)
        let request = ClipRequest(word: "cat", accent: .british, references: AudioReferences(recorded: "recorded/cat.wav"))
        let samples = (0..<8000).map { Float(0.5 * sin(Double($0) * 0.1)) }
        let pronunciation = Pronunciation(
            request: request,
            clip: ResolvedClip(
                tier: .recorded, source: "recorded/cat.wav",
                pcm: PCM(samples: samples, sampleRate: 16_000)), skipped: [])
        // The fingerprint the server and render compare: the files each tier would read.
        let tiers = Pronouncer(sources: [
            RecordedClipSource(audioRoot: dir.file("Audio"), cacheDirectory: dir.file("cache"), http: CurlHTTPClient()),
            LegacyClipSource(audioRoot: dir.file("Audio")),
        ])
        let saved = try store.save(pronunciation, key: key, word: "cat", inputs: tiers.inputs(of: request))
        #expect(saved.path == dir.file("clips/british/catalog/animals/cat.wav"))
        #expect(store.stored(key, inputs: tiers.inputs(of: request))?.record.tier == .recorded)
        let changed = ClipRequest(word: "cat", accent: .british, references: AudioReferences(recorded: "recorded/cat-new.wav"))
        #expect(store.stored(key, inputs: tiers.inputs(of: changed)) == nil, "a new recording makes the clip stale")
    }

    @Test("legacy clips of words without Latin letters are looked up by the word itself, not a shared name")
    func legacyNames() {
        #expect(ClipNaming.legacyName(for: "行") != ClipNaming.legacyName(for: "水"))
        #expect(ClipNaming.legacyName(for: "ice cream") == "ice_cream")
        #expect(ClipNaming.matchKey(forFile: "行.wav") == "行")
        #expect(ClipNaming.matchKey(forFile: "行.wav") != ClipNaming.matchKey(forFile: "水.wav"))
    }
}

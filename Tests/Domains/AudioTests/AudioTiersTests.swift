import AudioFile
import Foundation
import HTTPFetch
import Speech
import TestSupport
import Testing
import Vocabulary

@testable import Audio

/// A 440 Hz tone of the given length: a stand-in for a recorded clip, made by the test.
func tone(seconds: Double = 0.4, rate: Int = 16_000, amplitude: Float = 0.5) -> PCM {
    let n = Int(seconds * Double(rate))
    return PCM(samples: (0..<n).map { amplitude * sin(2 * .pi * 440 * Float($0) / Float(rate)) }, sampleRate: rate)
}

func toneBytes(_ format: AudioFormat = .wav, seconds: Double = 0.4) throws -> [UInt8] {
    let dir = try TemporaryDirectory("tone")
    defer { dir.remove() }
    let path = dir.file("tone.\(format.fileExtension)")
    try AudioFile.write(tone(seconds: seconds), to: path, format: format)
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// One synthesizer for the whole test process, as in the product: libespeak-ng is process-global.
/// Its data folder (links and the steady variant) is kept between runs, as a vocab home keeps it.
let sharedSynthesizer: EspeakSynthesizer = try! EspeakSynthesizer(dataDirectory: NSTemporaryDirectory() + "vocab-audio-tests-speech")

@Suite("Three-tier audio: recorded, legacy, espeak-ng", .serialized)
struct AudioTiersTests {
    let dir: TemporaryDirectory
    var audioRoot: String { dir.file("Audio") }

    init() throws {
        dir = try TemporaryDirectory("audio")
        try FileManager.default.createDirectory(atPath: dir.file("Audio/legacy/british"), withIntermediateDirectories: true)
    }

    func pronouncer(timeout: Double = 2) -> Pronouncer {
        Pronouncer(sources: [
            RecordedClipSource(
                audioRoot: audioRoot, cacheDirectory: dir.file("cache"), http: CurlHTTPClient(),
                options: HTTPRequestOptions(timeout: timeout, connectTimeout: 1, maxBytes: 1 << 20)),
            LegacyClipSource(audioRoot: audioRoot),
            SynthesizedClipSource(synthesizer: sharedSynthesizer),
        ])
    }

    func withLegacyClip() throws {
        try AudioFile.write(tone(seconds: 0.3), to: dir.file("Audio/legacy/british/cat.wav"), format: .wav)
    }

    @Test func aLocalRecordedClipWins() async throws {
        try AudioFile.write(tone(), to: dir.file("Audio/recorded/cat-gb.flac"), format: .flac)
        try withLegacyClip()
        let refs = AudioReferences(recorded: "recorded/cat-gb.flac", legacy: nil)
        let p = try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(p.clip.tier == .recorded)
        #expect(p.skipped.isEmpty)
        #expect(abs(p.clip.pcm.duration - 0.4) < 0.01)
    }

    @Test func aRemoteClipIsFetchedOnceThenServedFromTheDiskCache() async throws {
        let bytes = try toneBytes(.ogg)
        let server = try LoopbackHTTPServer { path in
            path == "/cat.ogg" ? .init(contentType: "audio/ogg", body: bytes) : .init(status: 404)
        }
        defer { server.stop() }
        let refs = AudioReferences(recorded: server.baseURL + "/cat.ogg")
        let first = try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(first.clip.tier == .recorded)
        #expect(first.clip.source == server.baseURL + "/cat.ogg")
        let second = try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(second.clip.tier == .recorded)
        #expect(second.clip.source.hasSuffix("(disk cache)"))
        #expect(server.requests(to: "/cat.ogg") == 1)
    }

    @Test(arguments: ["404", "timeout", "corrupt", "not audio", "refused"])
    func aBrokenRecordedClipFallsToLegacy(_ failure: String) async throws {
        try withLegacyClip()
        let server = try LoopbackHTTPServer { _ in
            switch failure {
            case "404": return .init(status: 404, contentType: "text/plain", body: Array("missing".utf8))
            case "timeout": return .init(contentType: "audio/wav", body: [0], delay: 3)
            case "not audio": return .text("<html>login</html>", type: "text/html")
            default: return .init(contentType: "audio/wav", body: Array("RIFF....WAVEfmt garbage that is not audio".utf8))
            }
        }
        if failure == "refused" { server.stop() }
        defer { server.stop() }
        let refs = AudioReferences(recorded: server.baseURL + "/cat.wav")
        let p = try await pronouncer(timeout: 1).pronounce(ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(p.clip.tier == .legacy)
        #expect(p.skipped.map(\.tier) == [.recorded])
        let reason = p.skipped.first?.reason ?? ""
        switch failure {
        case "404": #expect(reason.contains("HTTP 404"))
        case "timeout": #expect(reason.contains("timed out"))
        case "not audio": #expect(reason.contains("text/html"))
        case "refused": #expect(reason.contains("cannot reach"))
        default: #expect(reason.contains("cannot decode"))
        }
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: dir.file("cache"))) ?? []
        #expect(cached.count == 1 && cached.allSatisfy { $0.hasSuffix(".failed") }, "nothing broken is cached, only the failure is remembered: \(cached)")

        // The failure is remembered: the next request does not wait for the URL again.
        let before = server.requests(to: "/cat.wav")
        let again = try await pronouncer(timeout: 1).pronounce(ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(again.clip.tier == .legacy)
        #expect(again.skipped.first?.reason.contains("(remembered; tried again in about 10 min)") == true, "\(again.skipped)")
        #expect(server.requests(to: "/cat.wav") == before)
    }

    @Test func aRememberedFailureIsTriedAgainOnceItIsOld() async throws {
        try withLegacyClip()
        let bytes = try toneBytes(.wav)
        let server = try LoopbackHTTPServer { _ in .init(contentType: "audio/wav", body: bytes) }
        defer { server.stop() }
        let refs = AudioReferences(recorded: server.baseURL + "/cat.wav")
        let source = RecordedClipSource(audioRoot: audioRoot, cacheDirectory: dir.file("cache"), http: CurlHTTPClient(), failureMemory: 60)
        // A failure an hour old is forgotten.
        try FileManager.default.createDirectory(atPath: dir.file("cache"), withIntermediateDirectories: true)
        let marker = source.cachePath(for: refs.recorded!) + ".failed"
        try Data("HTTP 503".utf8).write(to: URL(fileURLWithPath: marker))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: marker)
        #expect(source.rememberedFailure(for: refs.recorded!) == nil)
        let clip = try await source.clip(for: ClipRequest(word: "cat", accent: .british, references: refs))
        #expect(clip.tier == .recorded)
        #expect(server.requests(to: "/cat.wav") == 1)
        #expect(!FileManager.default.fileExists(atPath: marker), "a success clears the remembered failure")
    }

    @Test func aCorruptLocalFileAndASilentClipFallThrough() async throws {
        try Data("not a wav file at all".utf8).write(to: URL(fileURLWithPath: dir.file("Audio/legacy/british/dog.wav")))
        try AudioFile.write(PCM(samples: [Float](repeating: 0, count: 8000), sampleRate: 16000), to: dir.file("Audio/quiet.wav"), format: .wav)
        let p = try await pronouncer().pronounce(ClipRequest(word: "dog", accent: .british, references: AudioReferences(recorded: "quiet.wav")))
        #expect(p.clip.tier == .tts)
        #expect(p.skipped.count == 2)
        #expect(p.skipped[0].reason.contains("silent"))
        #expect(p.skipped[1].reason.contains("cannot decode"))
    }

    @Test func nothingAtAllFallsToSpeech() async throws {
        let p = try await pronouncer().pronounce(ClipRequest(word: "elephant", accent: .american))
        #expect(p.clip.tier == .tts)
        #expect(p.clip.source == "espeak-ng en-us")
        #expect(p.skipped.map(\.tier) == [.recorded, .legacy])
    }

    @Test func legacyNamesFoldSpacesAndPunctuation() {
        #expect(ClipNaming.slug("ice cream") == "ice_cream")
        #expect(ClipNaming.slug("o'clock") == "oclock")
        #expect(ClipNaming.slug("café") == "cafe")
        #expect(ClipNaming.slug("T-shirt") == "t_shirt")
        #expect(ClipNaming.matchKeys(for: ClipRequest(word: "Ice Cream", accent: .american)) == ["ice_cream"])
    }

    @Test func forcingATierDoesNotFallThrough() async throws {
        await #expect(throws: NoClipAvailable.self) {
            try await pronouncer().pronounce(ClipRequest(word: "cat", accent: .british), only: .legacy)
        }
    }
}

@Suite("espeak-ng synthesis and libsndfile output", .serialized)
struct SynthesisTests {
    @Test(arguments: [Accent.british, .american])
    func speechIsAValidNonSilentWAVOfPlausibleLength(_ accent: Accent) async throws {
        let dir = try TemporaryDirectory("tts")
        defer { dir.remove() }
        let (samples, rate) = try await sharedSynthesizer.synthesize("elephant", voice: accent.voice)
        let path = dir.file("elephant.wav")
        try AudioFile.write(PCM(samples: samples, sampleRate: rate), to: path, format: .wav)
        let info = try AudioFile.inspect(path)
        #expect(info.sampleRate == 22050)
        #expect((0.3...1.5).contains(info.duration), "duration \(info.duration)")
        #expect(info.peak > 0.1)
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12)
        #expect(String(decoding: header.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: header.suffix(4), as: UTF8.self) == "WAVE")
    }

    @Test func accentsSoundDifferent() async throws {
        let gb = try await sharedSynthesizer.synthesize("tomato", voice: "en-gb").samples
        let us = try await sharedSynthesizer.synthesize("tomato", voice: "en-us").samples
        #expect(gb != us)
    }

    @Test(arguments: AudioFormat.allCases)
    func everyOutputFormatReadsBack(_ format: AudioFormat) throws {
        let dir = try TemporaryDirectory("fmt")
        defer { dir.remove() }
        let path = dir.file("t.\(format.fileExtension)")
        try AudioFile.write(tone(seconds: 0.5), to: path, format: format)
        let info = try AudioFile.inspect(path)
        #expect(abs(info.duration - 0.5) < 0.02)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.\(format.fileExtension)"], "no temp file left")
    }

    @Test func unreadableAudioIsAnError() throws {
        let dir = try TemporaryDirectory("bad")
        defer { dir.remove() }
        try Data([0, 1, 2, 3]).write(to: URL(fileURLWithPath: dir.file("x.wav")))
        #expect(throws: AudioError.self) { try AudioFile.inspect(dir.file("x.wav")) }
        #expect(throws: AudioError.self) { try AudioFile.inspect(dir.file("missing.wav")) }
    }
}

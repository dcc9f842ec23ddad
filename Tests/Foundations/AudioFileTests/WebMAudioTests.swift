import Foundation
import TestSupport
import Testing

@testable import AudioFile

/// A browser's recording: Opus in WebM, as Chromium's MediaRecorder made it (its Segment and
/// Clusters of unknown size), decoded by walking the container and libopus.
struct WebMAudioTests {
    static let recording = Repository.root + "/Tests/Domains/PronunciationTests/Fixtures/cat.webm"
    var bytes: [UInt8] { Array((try? Data(contentsOf: URL(fileURLWithPath: Self.recording))) ?? Data()) }

    @Test("the Opus track's packets are found, and decode to 48 kHz mono of the recording's length, with sound in it")
    func decodes() throws {
        let (track, packets) = try WebMAudio.demux(bytes)
        #expect(track.codec == "A_OPUS" && track.channels == 1 && track.preSkip == 0, "Chromium writes no pre-skip")
        #expect(packets.count == 25, "\(packets.count) packets of 60 ms")
        let decoded = try AudioFile.decode(bytes: bytes, name: "cat.webm")
        #expect(decoded.pcm.sampleRate == 48000)
        #expect(abs(decoded.pcm.duration - 1.5) < 0.3, "\(decoded.pcm.duration) s")
        #expect(decoded.pcm.peak > 0.1)
    }

    @Test("a recording cut short, or with no Opus track, is refused as unreadable; one too long is refused as implausible")
    func refusals() throws {
        for cut in [40, 300, 2000] {
            #expect(throws: AudioError.self, "\(cut) bytes") { try AudioFile.decode(bytes: Array(bytes.prefix(cut)), name: "cut.webm") }
        }
        var vorbis = bytes
        let codec = Array("A_OPUS".utf8)
        let at = try #require((0..<vorbis.count - codec.count).first { Array(vorbis[$0..<$0 + codec.count]) == codec })
        vorbis.replaceSubrange(at..<at + codec.count, with: Array("A_VORB".utf8))
        #expect {
            try AudioFile.decode(bytes: vorbis, name: "vorbis.webm")
        } throws: { error in
            if case AudioError.unreadable(_, let reason) = error { return reason.contains("no Opus audio") }
            return false
        }
        #expect {
            try AudioFile.decode(bytes: bytes, name: "long.webm", maximumSeconds: 0.5)
        } throws: { error in
            if case AudioError.implausible(_, let reason) = error { return reason.hasPrefix("longer than") }
            return false
        }
    }

    @Test("the sizes of EBML: a length marker, and every value bit set meaning unknown")
    func variableLengthNumbers() throws {
        var at = 0
        #expect(try WebMAudio.vint([0x81], &at) == 1 && at == 1)
        at = 0
        #expect(try WebMAudio.vint([0x40, 0x02], &at) == 2 && at == 2)
        at = 0
        #expect(try WebMAudio.vint([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], &at) == nil && at == 8)
        at = 0
        #expect(try WebMAudio.elementID([0x1A, 0x45, 0xDF, 0xA3], &at) == 0x1A45_DFA3)
    }
}

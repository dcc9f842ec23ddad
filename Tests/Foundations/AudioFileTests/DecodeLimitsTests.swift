import AudioFile
import Foundation
import TestSupport
import Testing

/// How long a file may be is a matter of time, not of frames: rates differ by 24x.
@Suite("Decoding: the 10-minute limit is in seconds at any rate, and a long file is mixed down a block at a time")
struct DecodeLimitsTests {
    /// A file made by sox (installed for the tests): `effects` after `-n`.
    func sox(_ path: String, rate: Int, channels: Int, seconds: Int) throws {
        let result = try runProcess(
            "/usr/bin/env",
            [
                "sox", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "8", path,
                "synth", "\(seconds)", "sine", "440", "vol", "0.1",
            ])
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func aLongHighRateStereoFileUnderTenMinutesDecodes() throws {
        let dir = try TemporaryDirectory("decode-limits")
        defer { dir.remove() }
        // 160 s at 192 kHz: 30.7 million frames, more than 10 minutes' worth at 48 kHz.
        let path = dir.file("long.wav")
        try sox(path, rate: 192_000, channels: 2, seconds: 160)
        let decoded = try AudioFile.decode(path)
        #expect(decoded.channels == 2)
        #expect(decoded.pcm.sampleRate == 192_000)
        #expect(abs(decoded.pcm.duration - 160) < 0.01, "\(decoded.pcm.duration)")
        // Mixed down: the mean of two equal channels is the channel.
        #expect(abs((decoded.pcm.samples.prefix(4800).map { abs($0) }.max() ?? 0) - 0.1) < 0.02)
    }

    @Test func aFileLongerThanTenMinutesIsRefusedAtALowRateToo() throws {
        let dir = try TemporaryDirectory("decode-limits")
        defer { dir.remove() }
        // 11 minutes at 8 kHz: 5.3 million frames, few, but 660 seconds.
        let path = dir.file("eleven.wav")
        try sox(path, rate: 8_000, channels: 1, seconds: 660)
        #expect {
            try AudioFile.decode(path)
        } throws: { error in
            String(describing: error).contains("longer than 10 minutes (660 s)")
        }
    }
}

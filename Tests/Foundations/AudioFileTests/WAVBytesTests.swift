import SeededRandom
import Testing

@testable import AudioFile

@Suite("The WAV vocab writes")
struct WAVBytesTests {
    /// One sample at a time, as vocab wrote clips before the samples were converted eight at a
    /// time: clipped to ±1, times 32767, rounded half away from zero, little-endian.
    static func reference(_ samples: [Float]) -> [UInt8] {
        var bytes: [UInt8] = []
        for x in samples {
            let y = min(1, max(-1, x)) * 32767
            withUnsafeBytes(of: Int16(y + (y >= 0 ? 0.5 : -0.5)).littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// The samples where rounding can go wrong: every half step between -1 and 1, the steps
    /// themselves, the ends of the range and beyond, signed zeros and the smallest magnitudes.
    static var awkward: [Float] {
        var samples: [Float] = [
            0, -0, 1, -1, 1.5, -1.5, 2, -2, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .ulpOfOne, 1 - .ulpOfOne, -1 + .ulpOfOne, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        ]
        for step in -32768...32767 {
            samples.append(Float(step) / 32767)
            samples.append((Float(step) + 0.5) / 32767)
            samples.append((Float(step) + 0.5).nextDown / 32767)
            samples.append((Float(step) + 0.5).nextUp / 32767)
        }
        return samples
    }

    @Test("every sample becomes the same two bytes as one at a time, whatever its place in the clip")
    func samplesMatchTheReference() {
        var generator = SeededGenerator(seed: 7)
        let random = (0..<50_000).map { _ in Float.random(in: -1.2...1.2, using: &generator) }
        for samples in [Self.awkward, random, Array(Self.awkward.prefix(7)), []] {
            // Every length modulo 8, so the tail after the last whole group of eight is covered too.
            for cut in 0..<9 where cut <= samples.count {
                let clip = Array(samples.dropFirst(cut))
                let bytes = Array(AudioFile.wavBytes(PCM(samples: clip, sampleRate: 22_050))[44...])
                let expected = Self.reference(clip)
                let first = (0..<clip.count).first { bytes[2 * $0..<2 * $0 + 2] != expected[2 * $0..<2 * $0 + 2] }
                #expect(bytes.count == expected.count)
                #expect(first == nil, "sample \(first ?? 0) of \(clip.count): \(first.map { clip[$0] } ?? 0)")
            }
        }
    }

    @Test("the header states the format and the data's length; the comment sits in a LIST/INFO chunk")
    func header() {
        let bytes = AudioFile.wavBytes(PCM(samples: [0.5, -0.5, 1], sampleRate: 16_000), comment: "hi")
        let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
        let u32 = { (at: Int) in bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
        #expect(text(0..<4) == "RIFF" && text(8..<16) == "WAVEfmt ")
        #expect(u32(4) == bytes.count - 8)
        #expect(u32(24) == 16_000 && u32(28) == 32_000)
        #expect(text(36..<40) == "LIST" && text(44..<52) == "INFOICMT" && text(56..<58) == "hi")
        let data = bytes.count - 6
        #expect(text(data - 8..<data - 4) == "data" && u32(data - 4) == 6)
        #expect(Array(bytes[data...]) == [0x00, 0x40, 0x00, 0xC0, 0xFF, 0x7F])
    }
}

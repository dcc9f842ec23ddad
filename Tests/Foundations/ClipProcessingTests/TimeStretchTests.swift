import AudioFile
import ClipProcessing
import Foundation
import Testing

/// A slower clip keeps its pitch and the order and share of its sounds: only time is stretched.
struct TimeStretchTests {
    let rate = 24_000

    func tone(_ hertz: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(0.5 * sin(2 * Double.pi * hertz * Double($0) / Double(rate))) }
    }

    /// The frequency of a stretch of samples, from its zero crossings.
    func hertz(_ samples: ArraySlice<Float>) -> Double {
        let crossings = zip(samples.dropLast(), samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (Double(samples.count) / Double(rate))
    }

    @Test("at 0.75 a tone lasts a third longer at the same pitch (resampling would lower it to 165 Hz)")
    func aToneKeepsItsPitch() {
        let slow = TimeStretch.stretch(PCM(samples: tone(220, seconds: 1), sampleRate: rate), speed: 0.75)
        #expect(abs(Double(slow.samples.count) / Double(rate) - 1 / 0.75) < 0.1, "\(slow.samples.count) samples")
        let middle = slow.samples[Int(0.2 * Double(rate))..<Int(1.1 * Double(rate))]
        #expect(abs(hertz(middle) - 220) < 3, "\(hertz(middle)) Hz")
    }

    @Test("two sounds in a row stay in their order, each a third longer")
    func soundsKeepTheirOrderAndShare() {
        let clip = tone(300, seconds: 0.3) + tone(600, seconds: 0.3)
        let slow = TimeStretch.stretch(PCM(samples: clip, sampleRate: rate), speed: 0.75).samples
        // The change, first at 0.3 s, is now at 0.4 s: well before it 300 Hz, well after it 600 Hz.
        let first = slow[Int(0.05 * Double(rate))..<Int(0.33 * Double(rate))]
        let second = slow[Int(0.47 * Double(rate))..<Int(0.75 * Double(rate))]
        #expect(abs(hertz(first) - 300) < 6, "\(hertz(first)) Hz")
        #expect(abs(hertz(second) - 600) < 12, "\(hertz(second)) Hz")
    }

    @Test("a slower clip is exactly as long as the pace asks, at any rate a voice speaks at", arguments: [16_000, 22_050, 24_000])
    func lengthFollowsThePace(rate: Int) {
        let clip = (0..<(rate / 2)).map { Float(0.3 * sin(2 * Double.pi * 180 * Double($0) / Double(rate))) }
        for speed in [0.5, 0.75, 0.9] {
            let slow = TimeStretch.stretch(PCM(samples: clip, sampleRate: rate), speed: speed)
            #expect(slow.samples.count == Int((Double(clip.count) / speed).rounded()), "\(rate) Hz at \(speed)")
            #expect(slow.samples.allSatisfy { $0.isFinite && abs($0) < 1 })
        }
    }

    @Test("the voice's own pace, and an empty clip, are given back unchanged")
    func nothingToStretch() {
        let clip = tone(440, seconds: 0.2)
        #expect(TimeStretch.stretch(PCM(samples: clip, sampleRate: rate), speed: 1).samples == clip)
        #expect(TimeStretch.stretch(PCM(samples: [], sampleRate: rate), speed: 0.75).samples.isEmpty)
    }
}

import AudioFile
import Foundation
import TestSupport
import Testing

/// Ten everyday words of different length and make-up (plosives, fricatives, nasals, two-word).
let tenWords = ["cat", "elephant", "it", "umbrella", "school", "banana", "ice cream", "fish", "pencil", "zoo"]

/// A fresh directory per test, removed by `remove()`.
struct Scratch {
    let path: String

    init(_ label: String = "clips") throws {
        path = NSTemporaryDirectory() + "loudness-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Finds a program on PATH; a test that needs it fails (not skips) when it is missing.
func program(_ name: String, package: String) throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
    }
    throw FixtureError("\(name) is not on PATH: apt-get install -y \(package)")
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Speaks a word to a WAV file (espeak-ng: 22050 Hz, 16-bit, mono, with its own silence around the word).
@discardableResult
func speak(_ text: String, to path: String, voice: String = "en-gb", pitch: Int? = nil, wordsPerMinute: Int? = nil) throws -> String {
    var arguments = ["-v", voice, "-w", path]
    if let pitch { arguments += ["-p", String(pitch)] }
    if let wordsPerMinute { arguments += ["-s", String(wordsPerMinute)] }
    let result = try runProcess(try program("espeak-ng", package: "espeak-ng"), arguments + [text])
    guard result.status == 0 else { throw FixtureError("espeak-ng failed: \(result.stderr)") }
    return path
}

func spoken(_ text: String, in scratch: Scratch, pitch: Int? = nil, wordsPerMinute: Int? = nil) throws -> PCM {
    let name = "\(text.replacingOccurrences(of: " ", with: "_"))-p\(pitch ?? 50)-s\(wordsPerMinute ?? 175).wav"
    return try AudioFile.read(speak(text, to: scratch.file(name), pitch: pitch, wordsPerMinute: wordsPerMinute))
}

/// The variants the brief asks for, made from real speech.
enum Variant {
    static func scaled(_ pcm: PCM, dB: Double) -> PCM {
        let g = Float(pow(10, dB / 20))
        return PCM(samples: pcm.samples.map { $0 * g }, sampleRate: pcm.sampleRate)
    }

    static func hardClipped(_ pcm: PCM, gainDB: Double) -> PCM {
        let g = Float(pow(10, gainDB / 20))
        return PCM(samples: pcm.samples.map { min(1, max(-1, $0 * g)) }, sampleRate: pcm.sampleRate)
    }

    static func silencePrepended(_ pcm: PCM, seconds: Double) -> PCM {
        PCM(samples: [Float](repeating: 0, count: Int(seconds * Double(pcm.sampleRate))) + pcm.samples, sampleRate: pcm.sampleRate)
    }

    static func silence(seconds: Double, sampleRate: Int = 22050) -> PCM {
        PCM(samples: [Float](repeating: 0, count: Int(seconds * Double(sampleRate))), sampleRate: sampleRate)
    }

    /// The file's first `fraction` of bytes, as an interrupted upload leaves it.
    static func truncate(file: String, fraction: Double, to target: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let kept = Int(Double(data.count) * fraction)
        try data.prefix(kept).write(to: URL(fileURLWithPath: target))
        return kept
    }
}

/// BS.1770 loudness measured without libebur128, for a cross-check: sox resamples to 48 kHz,
/// applies the standard's published 48 kHz K-weighting biquads and reports the RMS; loudness is
/// then −0.691 + 10·log10(mean square). Ungated, so it is given only the measured span.
func soxLoudness(_ pcm: PCM, scratch: Scratch) throws -> Double {
    let path = scratch.file("sox-\(UUID().uuidString.prefix(8)).wav")
    try AudioFile.write(pcm, to: path, format: .wav)
    let result = try runProcess(
        try program("sox", package: "sox"),
        [
            path, "-n", "rate", "-v", "48k",
            "biquad", "1.53512485958697", "-2.69169618940638", "1.19839281085285", "1.0", "-1.69065929318241", "0.73248077421585",
            "biquad", "1.0", "-2.0", "1.0", "1.0", "-1.99004745483398", "0.99007225036621",
            "stats",
        ])
    guard result.status == 0 else { throw FixtureError("sox failed: \(result.stderr)") }
    guard let line = result.stderr.split(separator: "\n").first(where: { $0.hasPrefix("RMS lev dB") }),
        let value = line.split(separator: " ").last.flatMap({ Double($0) })
    else {
        throw FixtureError("no RMS level in sox's output: \(result.stderr)")
    }
    return value - 0.691
}

func spread(_ values: [Double]) -> Double { (values.max() ?? 0) - (values.min() ?? 0) }

func tone(hertz: Double, rmsDBFS: Double, seconds: Double, sampleRate: Int = 48_000) -> PCM {
    let amplitude = pow(10, rmsDBFS / 20) * 2.0.squareRoot()
    let count = Int(seconds * Double(sampleRate))
    return PCM(
        samples: (0..<count).map { Float(amplitude * sin(2 * Double.pi * hertz * Double($0) / Double(sampleRate))) },
        sampleRate: sampleRate)
}

/// Nil when the two clips are bit for bit the same; otherwise where they first differ.
func firstDifference(_ a: PCM, _ b: PCM) -> String? {
    guard a.sampleRate == b.sampleRate, a.samples.count == b.samples.count else {
        return "\(a.samples.count) samples at \(a.sampleRate) Hz against \(b.samples.count) at \(b.sampleRate) Hz"
    }
    guard let i = a.samples.indices.first(where: { a.samples[$0].bitPattern != b.samples[$0].bitPattern }) else { return nil }
    return "sample \(i): \(a.samples[i]) against \(b.samples[i])"
}

import AudioFile
import Foundation
import TestSupport
import Testing

/// Stand-ins for a teacher's recordings, made in the test: the espeak-ng program at another
/// pitch than vocab's own voice (so a test can tell them apart), written as 16-bit WAV.
enum Recordings {
    static var espeak: String {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/espeak-ng") {
            return dir + "/espeak-ng"
        }
        return "/usr/bin/espeak-ng" // missing: the test fails saying so (scripts/install-deps installs it)
    }

    /// Speaks `text` into `path` (creating folders) and returns the path.
    @discardableResult
    static func make(_ text: String, at path: String, pitch: Int = 80, voice: String = "en-gb") throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try runProcess(espeak, ["-v", voice, "-p", String(pitch), "-w", path, text])
        guard result.status == 0 else { throw RecordingError("espeak-ng failed: \(result.stderr)") }
        return path
    }

    /// A recording turned by `dB` and given `silence` seconds in front, as an old collection has them.
    @discardableResult
    static func make(_ text: String, at path: String, pitch: Int = 80, gainDB: Double, leadingSilence: Double = 0) throws -> String {
        let scratch = path + ".raw.wav"
        try make(text, at: scratch, pitch: pitch)
        let pcm = try AudioFile.read(scratch)
        try FileManager.default.removeItem(atPath: scratch)
        let g = Float(pow(10, gainDB / 20))
        let pad = [Float](repeating: 0, count: Int(leadingSilence * Double(pcm.sampleRate)))
        try AudioFile.write(PCM(samples: pad + pcm.samples.map { $0 * g }, sampleRate: pcm.sampleRate), to: path, format: .wav)
        return path
    }

    /// The first `fraction` of the file's bytes, as an interrupted copy leaves it.
    static func truncate(_ path: String, to fraction: Double) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
    }
}

struct RecordingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

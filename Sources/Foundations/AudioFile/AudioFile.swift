import CSndFile
import SndFileShim
import FileAccess
import Foundation

/// Mono audio samples in the range -1...1.
public struct PCM: Sendable {
    public var samples: [Float]
    public var sampleRate: Int

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }
    public var peak: Float { samples.reduce(0) { max($0, abs($1)) } }
}

public enum AudioFormat: String, CaseIterable, Sendable, Codable {
    case wav, flac, ogg

    var sndfileFormat: Int32 {
        switch self {
        case .wav: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .ogg: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        }
    }

    public var fileExtension: String { rawValue }
}

/// What a decodable clip holds.
public struct AudioInfo: Sendable, Equatable, Codable {
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int
    public var duration: Double
    public var peak: Float
}

public enum AudioError: Error, CustomStringConvertible, Sendable, Equatable {
    case unreadable(path: String, reason: String)
    case implausible(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot decode \(path): \(reason)"
        case .implausible(let path, let reason): return "\(path) is not a usable clip: \(reason)"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}

/// Reading and writing clips with libsndfile (WAV, FLAC, Ogg Vorbis, Opus, MP3 in).
public enum AudioFile {
    /// A word clip shorter or longer than this is a broken file, not a pronunciation.
    public static let plausibleDuration: ClosedRange<Double> = 0.05...30
    /// Peak amplitude below this is silence.
    public static let silenceThreshold: Float = 0.01

    /// Decodes a file to mono samples (channels are averaged). Only regular files are opened:
    /// a FIFO or a device named like a clip would block the reader or never end.
    public static func read(_ path: String) throws -> PCM {
        let fd: Int32
        do {
            fd = try ContainedFile.openRegular(path)
        } catch let error as FileError {
            throw AudioError.unreadable(path: path, reason: error.description)
        }
        var info = SF_INFO()
        guard let file = vocab_sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            close(fd)
            throw AudioError.unreadable(path: path, reason: String(cString: vocab_sf_strerror(nil)))
        }
        defer { vocab_sf_close(file) }
        let channels = Int(max(1, info.channels))
        guard info.frames > 0 else { throw AudioError.implausible(path: path, reason: "no audio frames") }
        guard info.frames < 48_000 * 600 else { throw AudioError.implausible(path: path, reason: "longer than 10 minutes") }
        var interleaved = [Float](repeating: 0, count: Int(info.frames) * channels)
        let got = interleaved.withUnsafeMutableBufferPointer { vocab_sf_readf_float(file, $0.baseAddress, info.frames) }
        guard got > 0 else { throw AudioError.unreadable(path: path, reason: "no frames could be decoded") }
        var mono = [Float](repeating: 0, count: Int(got))
        for frame in 0..<Int(got) {
            var sum: Float = 0
            for c in 0..<channels { sum += interleaved[frame * channels + c] }
            mono[frame] = sum / Float(channels)
        }
        return PCM(samples: mono, sampleRate: Int(info.samplerate))
    }

    /// Decodes and checks a clip: readable, non-empty, plausible length, not silent.
    public static func inspect(_ path: String) throws -> AudioInfo {
        try check(read(path), path: path)
    }

    /// Decodes a clip and checks it, in one read: the samples of a clip that passed.
    public static func readChecked(_ path: String) throws -> PCM {
        let pcm = try read(path)
        _ = try check(pcm, path: path)
        return pcm
    }

    private static func check(_ pcm: PCM, path: String) throws -> AudioInfo {
        let info = AudioInfo(frames: pcm.samples.count, sampleRate: pcm.sampleRate, channels: 1, duration: pcm.duration, peak: pcm.peak)
        guard plausibleDuration.contains(info.duration) else {
            throw AudioError.implausible(path: path, reason: String(format: "duration %.3f s", info.duration))
        }
        guard info.peak >= silenceThreshold else { throw AudioError.implausible(path: path, reason: "silent") }
        return info
    }

    /// Writes atomically: a temporary file beside the target, renamed over it when complete.
    public static func write(_ pcm: PCM, to path: String, format: AudioFormat) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Named for its process, so a run that was killed while writing is cleaned up after.
        let temporary = TemporaryFile.path(beside: path, tag: "writing")
        var info = SF_INFO()
        info.samplerate = Int32(pcm.sampleRate)
        info.channels = 1
        info.format = format.sndfileFormat
        guard let file = vocab_sf_open(temporary, Int32(SFM_WRITE), &info) else {
            throw AudioError.writeFailed(path: path, reason: String(cString: vocab_sf_strerror(nil)))
        }
        let written = pcm.samples.withUnsafeBufferPointer { vocab_sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
        vocab_sf_close(file)
        guard written == pcm.samples.count else {
            unlink(temporary)
            throw AudioError.writeFailed(path: path, reason: "wrote \(written) of \(pcm.samples.count) frames")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AudioError.writeFailed(path: path, reason: reason)
        }
    }
}

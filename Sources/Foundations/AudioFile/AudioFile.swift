import CSndFile
import FileAccess
import Foundation
import PCMKernels
import SndFileShim

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
    /// The disk had no room for the clip: nothing was written, and the same write succeeds once
    /// there is space (a failure to report as the disk being full, not as a broken clip).
    case noSpace(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot decode \(path): \(reason)"
        case .implausible(let path, let reason): return "\(path) is not a usable clip: \(reason)"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        case .noSpace(let path): return "cannot write \(path): no space left on the disk"
        }
    }
}

/// A decoded file next to what its header declared.
public struct DecodedAudio: Sendable {
    public var pcm: PCM
    public var channels: Int
    /// libsndfile's frame count: for WAV and AIFF already shrunk to what the file holds.
    public var reportedFrames: Int
    /// The count the header's data chunk declares, where the format has one (see `AudioFile.headerFrames`).
    public var headerFrames: Int?
    public var decodedFrames: Int { pcm.samples.count }

    /// Every frame the header promised (or, without a usable header count, libsndfile reported) was decoded.
    public var isComplete: Bool { decodedFrames >= (headerFrames ?? reportedFrames) }
}

/// Reading and writing clips with libsndfile (WAV, FLAC, Ogg Vorbis, Opus, MP3 in).
public enum AudioFile {
    /// A word clip shorter or longer than this is a broken file, not a pronunciation.
    public static let plausibleDuration: ClosedRange<Double> = 0.05...30
    /// The longest file decoded at all: an import may trim minutes of silence around a word.
    public static let maximumSeconds: Double = 600
    /// Peak amplitude below this (-66 dBFS) is silence. Low, because a quiet legacy clip is still
    /// a word: the tiers bring every clip to one loudness, and refuse one too quiet to raise.
    public static let silenceThreshold: Float = 0.0005

    /// Nil when libsndfile is loaded (loading it if needed); otherwise why it cannot be, so a
    /// caller can tell a missing library from a bad file (both make `read` throw `unreadable`).
    public static var libraryLoadError: String? {
        vocab_sndfile_available() != 0 ? nil : String(cString: vocab_sndfile_load_error())
    }

    /// Decodes a file to mono samples (channels are averaged). Only regular files are opened:
    /// a FIFO or a device named like a clip would block the reader or never end.
    public static func read(_ path: String) throws -> PCM {
        try decode(path).pcm
    }

    /// Decodes a file to mono samples and says how many frames its header promised, so that a
    /// caller can refuse a truncated upload: libsndfile decodes a WAV or AIFF cut short without
    /// complaint, shrinking its frame count to what the file holds.
    public static func decode(_ path: String, maximumSeconds: Double = maximumSeconds) throws -> DecodedAudio {
        let fd: Int32
        do {
            fd = try ContainedFile.openRegular(path)
        } catch let error as FileError {
            throw AudioError.unreadable(path: path, reason: error.description)
        }
        return try decode(descriptor: fd, path: path, maximumSeconds: maximumSeconds)
    }

    /// Decodes audio held in memory (an upload), named `name` in errors. The bytes go to a file
    /// that has no name from the moment it is made (made, then unlinked), so nothing of them is
    /// left on disk once decoding ends, whatever happens.
    /// WebM (Opus, as a browser records it) is read by `WebMAudio`; everything else by libsndfile.
    public static func decode(bytes: [UInt8], name: String, maximumSeconds: Double = maximumSeconds) throws -> DecodedAudio {
        if bytes.starts(with: WebMAudio.magic) { return try WebMAudio.decode(bytes, name: name, maximumSeconds: maximumSeconds) }
        var template = Array((NSTemporaryDirectory().trimmingSuffix("/") + "/vocab-upload-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AudioError.unreadable(path: name, reason: "no temporary file: \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                close(fd)
                if code == ENOSPC || code == EDQUOT { throw AudioError.noSpace(path: name) }
                throw AudioError.unreadable(path: name, reason: String(cString: strerror(code)))
            }
            offset += n
        }
        lseek(fd, 0, SEEK_SET)
        return try decode(descriptor: fd, path: name, maximumSeconds: maximumSeconds)
    }

    /// How a recording over the limit is refused: "longer than 10 minutes", "longer than 10 seconds".
    static func longerThan(_ maximumSeconds: Double) -> String {
        maximumSeconds >= 60 ? String(format: "longer than %.0f minutes", maximumSeconds / 60) : String(format: "longer than %.0f seconds", maximumSeconds)
    }

    /// Decodes from an open descriptor, which it closes.
    static func decode(descriptor fd: Int32, path: String, maximumSeconds: Double) throws -> DecodedAudio {
        var info = SF_INFO()
        guard let file = vocab_sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            close(fd)
            throw AudioError.unreadable(path: path, reason: String(cString: vocab_sf_strerror(nil)))
        }
        defer { vocab_sf_close(file) }
        let channels = Int(max(1, info.channels))
        guard info.frames > 0 else { throw AudioError.implausible(path: path, reason: "no audio frames") }
        // The limit is on time, whatever the rate (a 5-minute 192 kHz recording is 5 minutes).
        let seconds = Double(info.frames) / Double(max(1, info.samplerate))
        guard seconds <= maximumSeconds else {
            throw AudioError.implausible(path: path, reason: String(format: "\(longerThan(maximumSeconds)) (%.0f s)", seconds))
        }
        // Decoded a block at a time and mixed down as it comes, so memory holds the mono samples
        // and one block, not every channel of the whole file.
        let blockFrames = 1 << 16
        var mono = [Float]()
        mono.reserveCapacity(Int(info.frames))
        var block = [Float](repeating: 0, count: blockFrames * channels)
        var got = 0
        // One pass normally returns everything; a damaged stream can stop early, and a later
        // call tells whether anything more can be had.
        while got < Int(info.frames) {
            let want = min(blockFrames, Int(info.frames) - got)
            let n = Int(block.withUnsafeMutableBufferPointer { vocab_sf_readf_float(file, $0.baseAddress!, sf_count_t(want)) })
            if n <= 0 { break }
            if channels == 1 {
                mono.append(contentsOf: block[0..<n])
            } else {
                for frame in 0..<n {
                    var sum: Float = 0
                    for c in 0..<channels { sum += block[frame * channels + c] }
                    mono.append(sum / Float(channels))
                }
            }
            got += n
        }
        guard got > 0 else { throw AudioError.unreadable(path: path, reason: "no frames could be decoded") }
        return DecodedAudio(
            pcm: PCM(samples: mono, sampleRate: Int(info.samplerate)), channels: channels,
            reportedFrames: Int(info.frames), headerFrames: headerFrames(file, info: info))
    }

    /// The frame count the header's sample-data chunk declares (WAV `data`, AIFF `SSND`), for
    /// uncompressed encodings whose bytes per frame are fixed. Nil where the format has no such
    /// field or carries a streaming placeholder (0, or ≥ 2 GiB: writers that could not seek back
    /// leave 0xFFFFFFFF or similar, and RF64 keeps the real size elsewhere).
    static func headerFrames(_ file: OpaquePointer, info: SF_INFO) -> Int? {
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let chunkID: String
        let skip: Int
        switch major {
        case Int(SF_FORMAT_WAV), Int(SF_FORMAT_WAVEX):
            chunkID = "data"
            skip = 0
        case Int(SF_FORMAT_AIFF):
            chunkID = "SSND"
            skip = 8 // offset and block size precede the samples
        default: return nil
        }
        let bytesPerSample: Int
        switch Int(info.format) & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_PCM_S8), Int(SF_FORMAT_PCM_U8), Int(SF_FORMAT_ULAW), Int(SF_FORMAT_ALAW): bytesPerSample = 1
        case Int(SF_FORMAT_PCM_16): bytesPerSample = 2
        case Int(SF_FORMAT_PCM_24): bytesPerSample = 3
        case Int(SF_FORMAT_PCM_32), Int(SF_FORMAT_FLOAT): bytesPerSample = 4
        case Int(SF_FORMAT_DOUBLE): bytesPerSample = 8
        default: return nil
        }
        var query = SF_CHUNK_INFO()
        withUnsafeMutableBytes(of: &query.id) { raw in
            for (i, byte) in chunkID.utf8.enumerated() { raw[i] = byte }
        }
        query.id_size = UInt32(chunkID.utf8.count)
        guard let iterator = vocab_sf_get_chunk_iterator(file, &query) else { return nil }
        var found = SF_CHUNK_INFO()
        guard vocab_sf_get_chunk_size(iterator, &found) == 0 else { return nil }
        let length = Int(found.datalen)
        guard length > skip, length < 0x8000_0000 else { return nil }
        return (length - skip) / (bytesPerSample * Int(max(1, info.channels)))
    }

    /// Decodes and checks a clip: readable, non-empty, plausible length, not silent.
    public static func inspect(_ path: String) throws -> AudioInfo {
        let pcm = try readChecked(path)
        return AudioInfo(frames: pcm.samples.count, sampleRate: pcm.sampleRate, channels: 1, duration: pcm.duration, peak: pcm.peak)
    }

    /// Decodes a clip and checks it, in one read: the samples of a clip that passed.
    /// A file whose header promises more frames than it holds (an interrupted copy or upload)
    /// is refused: the start of a word is not its pronunciation.
    public static func readChecked(_ path: String) throws -> PCM {
        let decoded = try decode(path)
        if !decoded.isComplete {
            let promised = decoded.headerFrames ?? decoded.reportedFrames
            throw AudioError.implausible(path: path, reason: "truncated: the header says \(promised) frames, the file holds \(decoded.decodedFrames)")
        }
        _ = try check(decoded.pcm, path: path)
        return decoded.pcm
    }

    private static func check(_ pcm: PCM, path: String) throws -> AudioInfo {
        let info = AudioInfo(frames: pcm.samples.count, sampleRate: pcm.sampleRate, channels: 1, duration: pcm.duration, peak: pcm.peak)
        guard plausibleDuration.contains(info.duration) else {
            throw AudioError.implausible(path: path, reason: String(format: "duration %.3f s", info.duration))
        }
        guard info.peak >= silenceThreshold else { throw AudioError.implausible(path: path, reason: "silent") }
        return info
    }

    /// The comment stored in a clip's own metadata (see `write(_:to:format:comment:)`), reading
    /// the header only; nil when there is none or the file cannot be opened.
    public static func comment(of path: String) -> String? {
        guard let fd = try? ContainedFile.openRegular(path) else { return nil }
        var info = SF_INFO()
        guard let file = vocab_sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            close(fd)
            return nil
        }
        defer { vocab_sf_close(file) }
        return vocab_sf_get_string(file, Int32(SF_STR_COMMENT)).map { String(cString: $0) }
    }

    /// Writes atomically: a temporary file beside the target, renamed over it when complete.
    /// `comment`, if given, goes into the file's own metadata (a WAV's LIST/INFO chunk, a FLAC
    /// or Ogg Vorbis comment), so what is known about a clip travels inside it: one file per
    /// clip, not two.
    public static func write(_ pcm: PCM, to path: String, format: AudioFormat, comment: String? = nil) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        // A write that failed for lack of space, however the library phrased it: the errno of
        // the failing call, or a file system with no block left to give.
        func failure(_ reason: String, errno code: Int32) -> AudioError {
            code == ENOSPC || code == EDQUOT || noSpaceLeft(directory.isEmpty ? "." : directory)
                ? .noSpace(path: path) : .writeFailed(path: path, reason: reason)
        }
        if !directory.isEmpty, access(directory, F_OK) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw failure("cannot create \(directory): \(error.localizedDescription)", errno: errno)
            }
        }
        if format == .wav {
            do {
                try DurableFile.write(wavBytes(pcm, comment: comment), to: path, durable: false)
            } catch let error as FileError {
                throw error.isDiskFull ? .noSpace(path: path) : failure(error.description, errno: 0)
            }
            return
        }
        // Named for its process, so a run that was killed while writing is cleaned up after.
        let temporary = TemporaryFile.path(beside: path, tag: "writing")
        var info = SF_INFO()
        info.samplerate = Int32(pcm.sampleRate)
        info.channels = 1
        info.format = format.sndfileFormat
        guard let file = vocab_sf_open(temporary, Int32(SFM_WRITE), &info) else {
            let code = errno
            unlink(temporary)
            throw failure(String(cString: vocab_sf_strerror(nil)), errno: code)
        }
        if let comment, vocab_sf_set_string(file, Int32(SF_STR_COMMENT), comment) != 0 {
            let code = errno
            let reason = String(cString: vocab_sf_strerror(file))
            vocab_sf_close(file)
            unlink(temporary)
            throw failure("cannot store the comment: " + reason, errno: code)
        }
        let written = pcm.samples.withUnsafeBufferPointer { vocab_sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
        let writeErrno = errno
        // libsndfile writes the header's sizes as it closes: a full disk may refuse only that.
        let closed = vocab_sf_close(file)
        let closeErrno = errno
        guard written == pcm.samples.count, closed == 0 else {
            unlink(temporary)
            throw failure("wrote \(written) of \(pcm.samples.count) frames", errno: written == pcm.samples.count ? closeErrno : writeErrno)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            unlink(temporary)
            throw failure(reason, errno: code)
        }
    }

    /// Whether the file system holding `directory` has no block left for an unprivileged
    /// writer (root's reserve aside): a write there failed for space whatever it said.
    public static func noSpaceLeft(_ directory: String) -> Bool {
        var info = statvfs()
        return statvfs(directory, &info) == 0 && info.f_bavail == 0
    }

    /// A 16-bit mono WAV, built in memory and written with one call: libsndfile writes a WAV in
    /// a dozen seeks and writes (its header three times), which was a tenth of a render's time.
    /// The comment goes into a LIST/INFO ICMT chunk, where libsndfile (and every tag reader)
    /// finds it. Samples are clipped to ±1 and rounded to the nearest step of 1/32767.
    public static func wavBytes(_ pcm: PCM, comment: String? = nil) -> [UInt8] {
        var list: [UInt8] = []
        if let comment {
            var text = Array(comment.utf8) + [0]
            if text.count % 2 == 1 { text.append(0) }
            list = Array("INFO".utf8) + Array("ICMT".utf8)
            withUnsafeBytes(of: UInt32(text.count).littleEndian) { list.append(contentsOf: $0) }
            list += text
        }
        let dataBytes = pcm.samples.count * 2
        var header: [UInt8] = []
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { header.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { header.append(contentsOf: $0) } }
        header += Array("RIFF".utf8)
        u32(4 + 24 + (list.isEmpty ? 0 : 8 + list.count) + 8 + dataBytes)
        header += Array("WAVE".utf8)
        header += Array("fmt ".utf8)
        u32(16)
        u16(1)
        u16(1)
        u32(pcm.sampleRate)
        u32(pcm.sampleRate * 2)
        u16(2)
        u16(16)
        if !list.isEmpty {
            header += Array("LIST".utf8)
            u32(list.count)
            header += list
        }
        header += Array("data".utf8)
        u32(dataBytes)
        let start = header.count
        return [UInt8](unsafeUninitializedCapacity: start + dataBytes) { buffer, count in
            _ = buffer.initialize(from: header)
            // The header has an even length, so the samples are 2-byte aligned.
            let out = UnsafeMutableRawPointer(buffer.baseAddress! + start)
            pcm.samples.withUnsafeBufferPointer { samples in
                quantise(samples, into: out)
            }
            count = start + dataBytes
        }
    }

    /// Finite samples to 16-bit little-endian PCM: clipped to ±1, scaled by 32767 and rounded
    /// half away from zero (`vocab_pcm16_from_float`, vectorised; a tenth of the time of this
    /// loop in Swift, which stays for big-endian hosts).
    static func quantise(_ samples: UnsafeBufferPointer<Float>, into out: UnsafeMutableRawPointer) {
        guard let x = samples.baseAddress, !samples.isEmpty else { return }
        #if _endian(little)
            vocab_pcm16_from_float(x, out.bindMemory(to: Int16.self, capacity: samples.count), samples.count)
        #else
            for i in 0..<samples.count {
                let y = min(1, max(-1, x[i])) * 32767
                out.storeBytes(of: Int16(y + (y >= 0 ? 0.5 : -0.5)).littleEndian, toByteOffset: 2 * i, as: Int16.self)
            }
        #endif
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

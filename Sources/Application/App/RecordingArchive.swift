import FileAccess
import Foundation
import Offloading

#if canImport(Glibc)
    import Glibc
#endif

/// The recordings of Say it attempts, kept only when the operator names a folder for them
/// (`VOCAB_KEEP_RECORDINGS`): a child's voice is theirs, so by default none is kept. A school
/// that wants to hear how its children sound, or an app maker tuning the judge, keeps them
/// here: one folder per learner, nobody but the server's user may read them, and a child
/// deleted from their class takes their recordings with them.
public struct RecordingArchive: Sendable {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    /// The learner's folder.
    public func folder(of learner: Int64) -> String { folder + "/learner-\(learner)" }

    /// Keeps one recording as it was sent, named by when it was said, the entry and the verdict:
    /// `20261203T184512.345Z-animals_cat-well_said.webm`.
    @discardableResult
    public func keep(_ audio: [UInt8], learner: Int64, entry: String, verdict: String, at date: Date) async throws -> String {
        let name = "\(Self.stamp(date))-\(Self.safe(entry))-\(Self.safe(verdict)).\(Self.fileExtension(of: audio))"
        let own = folder(of: learner)
        let root = folder
        return try await BlockingWork.run {
            for path in [root, own] {
                if mkdir(path, 0o700) != 0 && errno != EEXIST { throw FileError.system("cannot create the folder \(path)") }
            }
            chmod(own, 0o700)
            let path = own + "/" + name
            try DurableFile.write(audio, to: path)
            chmod(path, 0o600)
            return path
        }
    }

    /// Removes every recording of the learner.
    public func forget(learner: Int64) async throws {
        let own = folder(of: learner)
        try await BlockingWork.run {
            guard FileManager.default.fileExists(atPath: own) else { return }
            try FileManager.default.removeItem(atPath: own)
        }
    }

    /// Letters, digits, `-` and `_` only: an entry id's slash or a dot never makes a path.
    static func safe(_ text: String) -> String {
        String(text.unicodeScalars.map { ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" ? Character($0) : "_" })
    }

    /// What the bytes are, from their first bytes: the decoder already accepted them.
    static func fileExtension(of audio: [UInt8]) -> String {
        func starts(_ magic: [UInt8]) -> Bool { audio.count >= magic.count && Array(audio.prefix(magic.count)) == magic }
        if starts(Array("RIFF".utf8)) { return "wav" }
        if starts(Array("OggS".utf8)) { return "ogg" }
        if starts(Array("fLaC".utf8)) { return "flac" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "webm" }
        return "audio"
    }

    /// UTC to the millisecond, sortable as text.
    static func stamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(millis / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis % 1000
        let fraction = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec)).\(fraction)Z"
    }
}

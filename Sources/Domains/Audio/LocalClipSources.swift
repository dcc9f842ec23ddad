import AudioFile
import Vocabulary
import FileAccess
import Foundation
import Offloading

/// Reads a clip file and checks it is a real pronunciation, or says why not.
func loadClip(_ path: String) throws -> PCM {
    do {
        return try AudioFile.readChecked(path)
    } catch let error as AudioError {
        throw ClipUnavailable(error.description)
    }
}

/// Resolves a reference relative to the audio root: an absolute path, "..", or a symbolic link
/// that leads out of the folder is refused, so a category file cannot make vocab read
/// /etc/passwd as a clip.
func resolve(_ reference: String, under root: String) throws -> String {
    do {
        return try ContainedFile.resolve(reference, inside: root)
    } catch let error as FileError {
        throw ClipUnavailable(error.description)
    }
}

/// Tier 2: the older clip collection, `Audio/legacy/<accent>/<slug>.<ext>`, or the word's
/// explicit legacy reference.
public struct LegacyClipSource: ClipSource {
    public let tier = Tier.legacy
    public let audioRoot: String

    public init(audioRoot: String) { self.audioRoot = audioRoot }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        if let reference = request.references?.legacy {
            if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
                throw ClipUnavailable("legacy clips are local files, not URLs (\(reference))")
            }
            let path = try resolve(reference, under: audioRoot)
            return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
        }
        let candidates = ClipNaming.legacyPaths(for: request.word, accent: request.accent).map { "legacy/" + $0 }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: audioRoot + "/" + $0) }) else {
            throw ClipUnavailable("no legacy clip at \(audioRoot)/legacy/\(request.accent.rawValue)/\(ClipNaming.legacyName(for: request.word)).{wav,ogg,flac,mp3}")
        }
        let path = try resolve(found, under: audioRoot)
        return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
    }
}

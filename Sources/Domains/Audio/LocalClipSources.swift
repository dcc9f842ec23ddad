import AudioFile
import Catalog
import Foundation

/// Reads a clip file and checks it is a real pronunciation, or says why not.
func loadClip(_ path: String) throws -> PCM {
    guard FileManager.default.fileExists(atPath: path) else { throw ClipUnavailable("missing file \(path)") }
    do {
        return try AudioFile.readChecked(path)
    } catch let error as AudioError {
        throw ClipUnavailable(error.description)
    }
}

/// Resolves a reference relative to the audio root, refusing paths that climb out of it.
func resolve(_ reference: String, under root: String) throws -> String {
    if reference.hasPrefix("/") { return reference }
    let parts = reference.split(separator: "/")
    guard !parts.contains("..") else { throw ClipUnavailable("reference \(reference) leaves the audio folder") }
    return root + "/" + reference
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
            return ResolvedClip(tier: tier, source: path, pcm: try loadClip(path))
        }
        let candidates = ClipNaming.legacyPaths(for: request.word, accent: request.accent).map { audioRoot + "/legacy/" + $0 }
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw ClipUnavailable("no legacy clip at \(audioRoot)/legacy/\(request.accent.rawValue)/\(ClipNaming.slug(request.word)).{wav,ogg,flac,mp3}")
        }
        return ResolvedClip(tier: tier, source: path, pcm: try loadClip(path))
    }
}

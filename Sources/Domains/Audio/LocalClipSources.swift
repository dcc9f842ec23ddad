import AudioFile
import FileAccess
import Foundation
import Offloading
import Synchronization
import Vocabulary

/// Reads a clip file and checks it is a real pronunciation (whole, plausible, not silent), or
/// says why not.
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

/// Clips `vocab audio import` stored, filed under `Audio/<tier>/` by the entry's identity:
/// `Audio/recorded/british/catalog/animals/cat.wav`, `Audio/legacy/mandarin/moe/行/hang2.wav`.
public enum ImportedClips {
    public static func relativePath(tier: Tier, entry: EntryReference, accent: Accent, reading: String? = nil) -> String {
        "\(tier.rawValue)/" + ClipKey(entry: entry, accent: accent, reading: reading, format: .wav).relativePath
    }

    /// The imported clip's path for a request, if the request has an entry.
    static func path(tier: Tier, request: ClipRequest, audioRoot: String) -> String? {
        guard let entry = request.entry else { return nil }
        return audioRoot + "/" + relativePath(tier: tier, entry: entry, accent: request.accent, reading: request.reading)
    }
}

/// Tier 2: the older clip collection. In order: the clip imported for the entry
/// (`Audio/legacy/<accent>/<source>/<id>.wav`), the word's explicit legacy reference, then a
/// file in `Audio/legacy/<accent>/` whose name is the word in any spelling of it (`Sheep.wav`,
/// `ice-cream.wav`, `bus stop.wav`, `café.wav`, `spider.WAV`; see `LegacyIndex`).
public struct LegacyClipSource: ClipSource {
    public let tier = Tier.legacy
    public let audioRoot: String
    let index = LegacyIndex()

    public init(audioRoot: String) { self.audioRoot = audioRoot }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        let path = try locate(request)
        return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
    }

    /// The file this tier would read for the request.
    func locate(_ request: ClipRequest) throws -> String {
        if let imported = ImportedClips.path(tier: .legacy, request: request, audioRoot: audioRoot), ContainedFile.isRegular(imported) {
            return try resolve(String(imported.dropFirst(audioRoot.count + 1)), under: audioRoot)
        }
        if let reference = request.references?.legacy {
            if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
                throw ClipUnavailable("legacy clips are local files, not URLs (\(reference))")
            }
            return try resolve(reference, under: audioRoot)
        }
        let folder = "legacy/\(request.accent.rawValue)"
        switch index.match(request, in: audioRoot + "/" + folder) {
        case .found(let name):
            return try resolve(folder + "/" + name, under: audioRoot)
        case .ambiguous(let names):
            throw ClipUnavailable("several legacy clips could be '\(request.word)': \(names.joined(separator: ", ")) in \(audioRoot)/\(folder); keep one")
        case .none:
            throw ClipUnavailable("no legacy clip for '\(request.word)' in \(audioRoot)/\(folder)", absent: true)
        }
    }

    public func fingerprint(for request: ClipRequest) -> String {
        var parts: [String] = []
        if let imported = ImportedClips.path(tier: .legacy, request: request, audioRoot: audioRoot) {
            parts.append("imported:" + fileStamp(imported))
        }
        if let reference = request.references?.legacy {
            parts.append("ref:\(reference):" + fileStamp(audioRoot + "/" + reference))
        } else {
            let folder = audioRoot + "/legacy/\(request.accent.rawValue)"
            switch index.match(request, in: folder) {
            case .found(let name): parts.append("name:\(name):" + fileStamp(folder + "/" + name))
            case .ambiguous(let names): parts.append("ambiguous:" + names.joined(separator: "|"))
            case .none: parts.append("name:none")
            }
        }
        return parts.joined(separator: ",")
    }
}

/// The files of one legacy folder by the word they name, read once per change of the folder
/// (its modification time changes when a file is added, removed or renamed).
///
/// A file names the word whose slug its name has (`ClipNaming.matchKey`): case, accents,
/// spaces, hyphens, underscores and apostrophes do not matter, the extension is any of wav, ogg,
/// flac, mp3 in any case. Two files for one word are ambiguous unless they differ only in
/// their extension (then wav, ogg, flac, mp3 is the order of preference, as always).
final class LegacyIndex: Sendable {
    enum Match: Equatable {
        case found(String)
        case ambiguous([String])
        case none
    }

    private struct Folder {
        var stamp: String
        var byKey: [String: [String]]
    }

    private let folders = Mutex<[String: Folder]>([:])

    func match(_ request: ClipRequest, in folder: String) -> Match {
        let keys = ClipNaming.matchKeys(for: request)
        let byKey = files(in: folder)
        for key in keys {
            guard let names = byKey[key], !names.isEmpty else { continue }
            let stems = Set(names.map { ($0 as NSString).deletingPathExtension })
            if stems.count > 1 { return .ambiguous(names.sorted()) }
            let ranked = names.sorted { ClipNaming.extensionRank($0) < ClipNaming.extensionRank($1) }
            return .found(ranked[0])
        }
        return .none
    }

    private func files(in folder: String) -> [String: [String]] {
        let stamp = fileStamp(folder)
        if let cached = folders.withLock({ $0[folder] }), cached.stamp == stamp { return cached.byKey }
        var byKey: [String: [String]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let key = ClipNaming.matchKey(forFile: name) else { continue }
            byKey[key, default: []].append(name)
        }
        folders.withLock { $0[folder] = Folder(stamp: stamp, byKey: byKey) }
        return byKey
    }
}

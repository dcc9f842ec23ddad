import AudioFile
import FileAccess
import Foundation
import TextMatching
import Vocabulary

/// Which clip: the entry it pronounces, the accent and the file format. Every clip vocab
/// writes (`say`, `render`, the server's cache) is filed by this key, so two entries never
/// share a file: 行 and 水 are two files, and so are `May` the month and `may` the verb.
public struct ClipKey: Sendable, Hashable {
    public var entry: EntryReference
    public var accent: Accent
    public var format: AudioFormat

    public init(entry: EntryReference, accent: Accent, format: AudioFormat) {
        self.entry = entry
        self.accent = accent
        self.format = format
    }

    /// `<accent>/<source>/<id>.<format>`, readable: `british/catalog/animals/cat.wav`. Catalog
    /// ids keep their category folder; free text gets a short readable name and a hash of the
    /// exact text (`text/hello-1f2e3d4c`), since any text can be spoken and file names are short.
    public var relativePath: String {
        let name: String
        switch entry.source {
        case .catalog:
            name = entry.id.split(separator: "/", omittingEmptySubsequences: false).map { Self.fileSafe(String($0)) }.joined(separator: "/")
        case .text, .dictionary:
            let slug = ClipNaming.slug(entry.id)
            name = "\(slug.isEmpty ? "clip" : String(slug.prefix(40)))-\(Self.hash(entry.id))"
        case .moe:
            name = Self.fileSafe(entry.id)
        }
        return "\(accent.rawValue)/\(entry.source.rawValue)/\(name).\(format.fileExtension)"
    }

    /// Letters, digits, "-" and "_" as they are (in any script); every other byte as %XX, so
    /// no name is ".", "..", hidden, or holds a separator.
    static func fileSafe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
            }
        }
        return out.isEmpty ? "%00" : out
    }

    /// FNV-1a of the text, 8 hex digits: enough to tell texts apart within one slug.
    static func hash(_ text: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for b in text.utf8 { hash = (hash ^ UInt32(b)) &* 0x0100_0193 }
        return String(hash, radix: 16).leftPadded(8)
    }
}

/// What is known about a stored clip, kept beside it (`<clip>.json`): which tier made it, from
/// what, and a fingerprint of the inputs it was made from (the entry's clip references), so a
/// changed reference makes the clip stale instead of serving the old one.
public struct ClipRecord: Codable, Sendable, Equatable {
    public var word: String
    public var entry: String
    public var accent: Accent
    public var tier: Tier
    public var source: String
    public var duration: Double
    public var inputs: String

    public init(word: String, entry: EntryReference, accent: Accent, tier: Tier, source: String, duration: Double, inputs: String) {
        self.word = word
        self.entry = entry.description
        self.accent = accent
        self.tier = tier
        self.source = source
        self.duration = duration
        self.inputs = inputs
    }
}

/// A clip on disk with its record.
public struct StoredClip: Sendable {
    public var path: String
    public var record: ClipRecord

    public init(path: String, record: ClipRecord) {
        self.path = path
        self.record = record
    }
}

/// Clips filed by `ClipKey` under one folder: the vocab home's `clips/` for `say` and the
/// server, the output folder for `render`. Files are written under a temporary name and
/// renamed, the record after the clip, so a reader that finds a record finds its clip whole.
public struct ClipStore: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    public func path(for key: ClipKey) -> String { root + "/" + key.relativePath }
    func recordPath(for key: ClipKey) -> String { path(for: key) + ".json" }

    /// The stored clip for `key` if it was made from the same inputs and is still a file.
    public func stored(_ key: ClipKey, inputs: String) -> StoredClip? {
        let audio = path(for: key)
        guard let data = FileManager.default.contents(atPath: recordPath(for: key)),
              let record = try? JSONDecoder().decode(ClipRecord.self, from: data),
              record.inputs == inputs, ContainedFile.isRegular(audio) else { return nil }
        return StoredClip(path: audio, record: record)
    }

    /// Writes a pronunciation's clip and its record.
    @discardableResult
    public func save(_ pronunciation: Pronunciation, key: ClipKey, word: String, inputs: String) throws -> StoredClip {
        let audio = path(for: key)
        try AudioFile.write(pronunciation.clip.pcm, to: audio, format: key.format)
        let record = ClipRecord(word: word, entry: key.entry, accent: key.accent, tier: pronunciation.clip.tier,
                                source: pronunciation.clip.source, duration: (pronunciation.clip.pcm.duration * 1000).rounded() / 1000,
                                inputs: inputs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try DurableFile.write(Array(try encoder.encode(record)), to: recordPath(for: key), durable: false)
        return StoredClip(path: audio, record: record)
    }

    /// The fingerprint of what a clip is made from: the request's references. A new recording
    /// for a word changes it; the words themselves are in the key.
    public static func inputs(of request: ClipRequest) -> String {
        "recorded=\(request.references?.recorded ?? "")\u{1F}legacy=\(request.references?.legacy ?? "")"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

import AudioFile
import FileAccess
import Foundation
import JSONReading
import TextMatching
import Vocabulary

/// Which clip: the entry it pronounces, the accent, the reading (Mandarin titles have several)
/// and the file format. Every clip vocab writes (`say`, `render`, the server's cache, `audio
/// import`) is filed by this key, so two entries never share a file: 行 and 水 are two files, and
/// so are `May` the month and `may` the verb, and 行 read xíng and 行 read háng.
public struct ClipKey: Sendable, Hashable {
    public var entry: EntryReference
    public var accent: Accent
    public var reading: String?
    public var format: AudioFormat
    /// The pace the clip is spoken at (1: the voice's own); a slower clip is a clip of its own.
    public var speed: Double

    public init(entry: EntryReference, accent: Accent, reading: String? = nil, format: AudioFormat, speed: Double = 1) {
        self.entry = entry
        self.accent = accent
        self.reading = reading
        self.format = format
        self.speed = speed
    }

    /// `<accent>/<source>/<id>.<format>`, readable: `british/catalog/animals/cat.wav`. Catalog
    /// ids keep their category folder; a Mandarin title is a folder with one file per reading,
    /// named by its numbered pinyin (`mandarin/moe/行/hang2.wav`); free text gets a short readable
    /// name and a hash of the exact text (`text/hello-1f2e3d4c`), since any text can be spoken
    /// and file names are short.
    public var relativePath: String { "\(relativeStem).\(format.fileExtension)" }

    /// The path without its extension.
    public var relativeStem: String {
        let name: String
        switch entry.source {
        case .catalog:
            name =
                Self.isPlainPath(entry.id)
                ? entry.id
                : entry.id.split(separator: "/", omittingEmptySubsequences: false).map { Self.fileSafe(String($0)) }.joined(separator: "/")
        case .text, .dictionary:
            let slug = ClipNaming.slug(entry.id)
            name = "\(slug.isEmpty ? "clip" : String(slug.prefix(40)))-\(Self.hash(entry.id))"
        case .moe:
            name = Self.fileSafe(entry.id) + (reading.map { "/" + Pinyin.fileName($0) } ?? "")
        }
        let pace = speed == 1 ? "" : "@" + Self.speedLabel(speed)
        return "\(accent.rawValue)/\(entry.source.rawValue)/\(name)\(pace)"
    }

    /// A speed as its shortest decimal to the hundredth: 0.75 → "0.75", 0.5 → "0.5", 1 → "1".
    public static func speedLabel(_ speed: Double) -> String {
        let hundredths = Int((speed * 100).rounded())
        var text = "\(hundredths / 100)"
        let fraction = hundredths % 100
        if fraction != 0 { text += "." + (fraction % 10 == 0 ? "\(fraction / 10)" : String(fraction).leftPadded(2)) }
        return text
    }

    /// Letters, digits, "-" and "_" as they are (in any script); every other byte as %XX, so
    /// no name is ".", "..", hidden, or holds a separator.
    static func fileSafe(_ text: String) -> String {
        // Most names are plain ASCII letters, digits and hyphens: they are their own file name.
        if !text.isEmpty, text.utf8.allSatisfy(isPlain) {
            return text
        }
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

    /// An ASCII letter or digit, "-" or "_".
    static func isPlain(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x5F
    }

    /// Components of letters, digits, "-" and "_" between single slashes: each is its own file
    /// name (`fileSafe`), so the id is its own path, as every catalog id is. (Splitting and
    /// joining it for every clip was 1.6% of a render.)
    static func isPlainPath(_ id: String) -> Bool {
        var previous: UInt8 = 0x2F // a leading slash starts with an empty component
        for byte in id.utf8 {
            if byte == 0x2F {
                if previous == 0x2F { return false }
            } else if !isPlain(byte) {
                return false
            }
            previous = byte
        }
        return previous != 0x2F // nor may it be empty or end with a slash
    }

    /// FNV-1a of the text, 8 hex digits: enough to tell texts apart within one slug.
    static func hash(_ text: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for b in text.utf8 { hash = (hash ^ UInt32(b)) &* 0x0100_0193 }
        return String(hash, radix: 16).leftPadded(8)
    }
}

/// What is known about a stored clip, kept inside it (as JSON in the file's comment: a WAV's
/// LIST/INFO chunk, a FLAC or Ogg Vorbis comment): which tier made it, from what, and a fingerprint of the inputs it was made from (`Pronouncer.inputs`: the files each
/// tier would read, with their size and time, or their absence), so a recording added, replaced
/// or removed makes the clip stale instead of serving the old one.
public struct ClipRecord: Codable, Sendable, Equatable {
    public var word: String
    public var entry: String
    public var accent: Accent
    public var tier: Tier
    public var source: String
    public var duration: Double
    public var inputs: String
    public var reading: String?

    public init(
        word: String, entry: EntryReference, accent: Accent, tier: Tier, source: String, duration: Double, inputs: String,
        reading: String? = nil
    ) {
        self.word = word
        self.entry = entry.description
        self.accent = accent
        self.tier = tier
        self.source = source
        self.duration = duration
        self.inputs = inputs
        self.reading = reading
    }
}

extension ClipRecord {
    /// As stored in a clip's comment: compact, keys sorted, so the same record is the same bytes.
    /// Written by hand: JSONEncoder took as long as writing the clip. `ClipRecord`'s decoder reads
    /// it back (tested).
    public var json: String {
        var fields = [
            ("accent", Self.quoted(accent.rawValue)), ("duration", String(duration)), ("entry", Self.quoted(entry)),
            ("inputs", Self.quoted(inputs)),
        ]
        if let reading { fields.append(("reading", Self.quoted(reading))) }
        fields += [("source", Self.quoted(source)), ("tier", Self.quoted(tier.rawValue)), ("word", Self.quoted(word))]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func quoted(_ text: String) -> String { JSONQuoting.quoted(text) }
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
/// server, the output folder for `render`. Each clip carries its record in its own metadata
/// and is written under a temporary name and renamed, so a reader finds a clip whole with its
/// record or not at all. (A record in a file of its own doubled the files a render creates,
/// and creating files was most of a render's time on a busy ext4.)
public struct ClipStore: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    public func path(for key: ClipKey) -> String { root + "/" + key.relativePath }

    /// The stored clip for `key` if it was made from the same inputs and is still a file.
    public func stored(_ key: ClipKey, inputs: String) -> StoredClip? {
        let audio = path(for: key)
        guard let record = Self.record(of: audio), record.inputs == inputs else { return nil }
        return StoredClip(path: audio, record: record)
    }

    /// The record a clip carries, if it is a clip vocab wrote.
    public static func record(of path: String) -> ClipRecord? {
        guard let text = AudioFile.comment(of: path) else { return nil }
        return try? JSONDecoder().decode(ClipRecord.self, from: Data(text.utf8))
    }

    /// Writes a pronunciation's clip with its record.
    @discardableResult
    public func save(_ pronunciation: Pronunciation, key: ClipKey, word: String, inputs: String) throws -> StoredClip {
        let audio = path(for: key)
        // A clip made because a voice failed (its process died, hung) is a stand-in: recorded
        // with inputs no plan computes, so the next render or request tries the voice again.
        let failedVoice = pronunciation.skipped.contains { $0.tier.isSynthesis && !$0.isAbsence }
        let record = ClipRecord(
            word: word, entry: key.entry, accent: key.accent, tier: pronunciation.clip.tier,
            source: pronunciation.clip.source, duration: (pronunciation.clip.pcm.duration * 1000).rounded() / 1000,
            inputs: failedVoice ? inputs + "\u{1F}after a failed voice" : inputs, reading: key.reading)
        try AudioFile.write(pronunciation.clip.pcm, to: audio, format: key.format, comment: record.json)
        return StoredClip(path: audio, record: record)
    }

}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

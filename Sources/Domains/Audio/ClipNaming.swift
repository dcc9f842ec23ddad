import Foundation
import TextMatching
import Vocabulary

/// Readable names for clips: lower case ASCII, diacritics removed, spaces and hyphens as `_`,
/// other punctuation dropped. "ice cream" → ice_cream, "o'clock" → oclock, "café" → cafe.
/// Text with no Latin letters (行) has no slug: names made from slugs must not meet in one
/// made-up name for every such word.
public enum ClipNaming {
    public static func slug(_ word: String) -> String {
        var out = ""
        for ch in SearchText.fold(word) {
            if ch.isASCII, ch.isLetter || ch.isNumber {
                out.append(ch)
            } else if ch == " " || ch == "-" || ch == "_" {
                if !out.hasSuffix("_") { out.append("_") }
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        while out.hasPrefix("_") { out.removeFirst() }
        return out
    }

    /// The audio file extensions read from clip folders, in order of preference.
    public static let audioExtensions = ["wav", "ogg", "flac", "mp3"]

    static func extensionRank(_ name: String) -> Int {
        audioExtensions.firstIndex(of: (name as NSString).pathExtension.lowercased()) ?? audioExtensions.count
    }

    /// The name a legacy clip is expected under, for messages: `ice_cream`, or the word itself
    /// when it has no Latin letters (行).
    public static func legacyName(for word: String) -> String {
        let slug = slug(word)
        return slug.isEmpty ? ClipKey.fileSafe(word) : slug
    }

    /// What a file name says it pronounces, as a key to compare with `matchKeys(for:)`; nil for
    /// a file that is not audio by its extension (or is hidden). English names fold to their
    /// slug (`Sheep.wav`, `ice-cream.WAV`, `bus stop.ogg`, `café.wav` → sheep, ice_cream,
    /// bus_stop, cafe); a name holding Han characters is a Mandarin title, optionally followed by
    /// a reading in pinyin with marks or digits (`行.wav`, `行 háng.wav`, `行_hang2.wav` →
    /// 行, 行|hang2, 行|hang2).
    public static func matchKey(forFile name: String) -> String? {
        guard !name.hasPrefix("."), audioExtensions.contains((name as NSString).pathExtension.lowercased()) else { return nil }
        return matchKey(forStem: (name as NSString).deletingPathExtension)
    }

    /// The same for a name without its extension (also what a `--map` file gives as a word).
    public static func matchKey(forStem stem: String) -> String? {
        let (title, reading) = splitTitle(stem)
        if let title {
            return reading.map { "\(title)|\(Pinyin.numbered($0))" } ?? title
        }
        let slug = slug(stem)
        return slug.isEmpty ? nil : slug
    }

    /// The keys a request's clip may be found under, most specific first: the word's slug; for a
    /// Mandarin title, the title with its reading, then (for its first reading only) the title
    /// alone.
    public static func matchKeys(for request: ClipRequest) -> [String] {
        if request.accent == .mandarin {
            let title = request.word.filter { !$0.isWhitespace }
            var keys: [String] = []
            if let reading = request.reading { keys.append("\(title)|\(Pinyin.numbered(reading))") }
            if request.isFirstReading { keys.append(title) }
            return keys
        }
        let slug = slug(request.word)
        return slug.isEmpty ? [] : [slug]
    }

    /// Splits "行 háng" or "行_hang2" into title and reading; a name with no Han character has
    /// no title.
    public static func splitTitle(_ stem: String) -> (title: String?, reading: String?) {
        guard let first = stem.firstIndex(where: isHan) else { return (nil, nil) }
        guard stem[..<first].allSatisfy({ $0 == " " || $0 == "_" || $0 == "-" }) else { return (nil, nil) }
        var end = first
        while end < stem.endIndex, isHan(stem[end]) { end = stem.index(after: end) }
        let title = String(stem[first..<end])
        let rest = stem[end...].trimmingCharacters(in: CharacterSet(charactersIn: " _-"))
        let reading = rest.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return (title, reading.isEmpty ? nil : reading)
    }

    /// CJK ideographs (with the extensions and compatibility blocks) and 〇.
    public static func isHan(_ ch: Character) -> Bool {
        ch.unicodeScalars.allSatisfy { s in
            switch s.value {
            case 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return true
            default: return false
            }
        }
    }
}

import Vocabulary
import TextMatching

/// Readable names for clips: lower case ASCII, diacritics removed, spaces and hyphens as `_`,
/// other punctuation dropped. "ice cream" → ice_cream, "o'clock" → oclock, "café" → cafe.
/// Text with no Latin letters (行) has no slug: names made from slugs must not meet in one
/// made-up name for every such word.
public enum ClipNaming {
    public static func slug(_ word: String) -> String {
        var out = ""
        for ch in SearchText.fold(word) {
            if ch.isASCII, ch.isLetter || ch.isNumber { out.append(ch) } else if ch == " " || ch == "-" || ch == "_" {
                if !out.hasSuffix("_") { out.append("_") }
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out
    }

    /// The relative paths a legacy clip may have: `<accent>/<name>.<ext>` under `Audio/legacy/`,
    /// where the name is the slug, or the word itself when it has no Latin letters (行.wav).
    public static func legacyPaths(for word: String, accent: Accent) -> [String] {
        let name = legacyName(for: word)
        return ["wav", "ogg", "flac", "mp3"].map { "\(accent.rawValue)/\(name).\($0)" }
    }

    public static func legacyName(for word: String) -> String {
        let slug = slug(word)
        return slug.isEmpty ? ClipKey.fileSafe(word) : slug
    }
}

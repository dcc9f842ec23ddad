import Catalog

/// File names for clips: lower case ASCII, diacritics removed, spaces and hyphens as `_`,
/// other punctuation dropped. "ice cream" → ice_cream, "o'clock" → oclock, "café" → cafe.
public enum ClipNaming {
    public static func slug(_ word: String) -> String {
        var out = ""
        for ch in SearchText.fold(word) {
            if ch.isASCII, ch.isLetter || ch.isNumber { out.append(ch) } else if ch == " " || ch == "-" || ch == "_" {
                if !out.hasSuffix("_") { out.append("_") }
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "clip" : out
    }

    /// The relative path of a legacy clip: `<accent>/<slug>.<ext>` under `Audio/legacy/`.
    public static func legacyPaths(for word: String, accent: Accent) -> [String] {
        ["wav", "ogg", "flac", "mp3"].map { "\(accent.rawValue)/\(slug(word)).\($0)" }
    }
}

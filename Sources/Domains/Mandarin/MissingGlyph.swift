/// The dictionary's placeholders for glyphs Unicode lacks: `{[97d2]}`, four or five hex digits
/// naming the glyph in the Ministry's own font (in 1,041 titles and 561 definition, quote,
/// example and link strings).
///
/// Text output shows each as one geta mark 〓 (U+3013, the typesetter's sign for a missing
/// character), which keeps the width of one character; JSON keeps the placeholder as it is,
/// so a client that has the glyphs can draw them.
public enum MissingGlyph {
    public static let mark = "〓"

    /// `text` with every placeholder shown as the mark.
    public static func shown(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 8 else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        var changed = false
        while i < scalars.count {
            if scalars[i] == "{", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, j - i - 2 < 6, scalars[j].properties.isASCIIHexDigit { j += 1 }
                let digits = j - i - 2
                if (4...5).contains(digits), j + 1 < scalars.count, scalars[j] == "]", scalars[j + 1] == "}" {
                    out.append(contentsOf: mark.unicodeScalars)
                    i = j + 2
                    changed = true
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return changed ? String(out) : text
    }
}

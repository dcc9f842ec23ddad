/// A string as a JSON string literal, for the few places that write JSON by hand because the
/// generic encoder was most of their time (clip records, document filters, Anki's columns).
///
/// Escapes what JSON requires and nothing more, as `JSONEncoder` does with
/// `.withoutEscapingSlashes`: the quote, the backslash and control characters (the common ones
/// by their short forms), so what is written compares byte for byte with the encoder's output.
public enum JSONQuoting {
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    public static func append(_ text: String, to out: inout String) {
        out += "\""
        // Most text needs no escape at all: appended whole, not scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// A number as `JSONEncoder` writes it: a whole number without a fraction, any other in
    /// Swift's shortest form. Nil for NaN and the infinities, which JSON cannot hold (the
    /// encoder throws for them).
    public static func number(_ d: Double) -> String? {
        guard d.isFinite else { return nil }
        return d == d.rounded() && abs(d) < 9_007_199_254_740_992 ? String(Int64(d)) : d.description
    }
}

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
}

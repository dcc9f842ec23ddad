import Crypto
import Foundation

public enum AnkiGUID {
    /// Anki's base91 alphabet (rslib `anki_base91`), so our guids look like Anki's own.
    static let base91: [Character] = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~")

    /// The same key always gives the same guid, so a re-exported note updates the imported one
    /// instead of adding a duplicate. The first 8 bytes of SHA-1(key) play the part of the random
    /// u64 that Anki encodes for a new note.
    public static func stable(for key: String) -> String {
        let digest = Array(Insecure.SHA1.hash(data: Array(key.utf8)))
        let n = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return encode(n)
    }

    static func encode(_ value: UInt64) -> String {
        // Anki's to_base_n yields "" for 0; keep one digit so a guid is never empty.
        if value == 0 { return String(base91[0]) }
        var n = value
        var digits: [Character] = []
        while n > 0 {
            digits.append(base91[Int(n % 91)])
            n /= 91
        }
        return String(digits.reversed())
    }
}

/// The text rules Anki applies to fields, reimplemented so the package holds what Anki would
/// store (rslib `text.rs`, `notes/mod.rs`, `template.rs`).
public enum AnkiText {
    /// `csum`: the first 4 bytes of SHA-1 of the first field, HTML-stripped with media file
    /// names kept, read as a big-endian integer. Anki recomputes it on import; it must still be
    /// right for tools (and older Anki versions) that trust the file.
    public static func fieldChecksum(_ field: String) -> Int64 {
        // SHA-1 because Anki keys checksums on it; nothing here relies on it for security.
        let digest = Array(Insecure.SHA1.hash(data: Array(stripHTMLPreservingMediaFilenames(field).utf8)))
        return Int64(digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// What Anki stores for a field: NFC, without ASCII control characters other than tab and
    /// newline. A stray 0x1f would otherwise split the field in `flds`.
    public static func normalizedField(_ field: String) -> String {
        let nfc = field.precomposedStringWithCanonicalMapping
        guard nfc.unicodeScalars.contains(where: isInvalidFieldScalar) else { return nfc }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: nfc.unicodeScalars.filter { !isInvalidFieldScalar($0) })
        return String(out)
    }

    private static func isInvalidFieldScalar(_ s: Unicode.Scalar) -> Bool {
        (s.value < 0x20 || s.value == 0x7F) && s != "\n" && s != "\t"
    }

    /// The names in `[sound:NAME]` references, in order of appearance.
    public static func soundReferences(in field: String) -> [String] {
        var names: [String] = []
        var rest = field[...]
        while let open = rest.range(of: "[sound:") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: "]") else { break }
            let name = rest[..<close]
            if !name.isEmpty { names.append(String(name)) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Anki's `field_is_empty`: only whitespace and empty `<br>`/`<div>` tags.
    static func fieldIsEmpty(_ field: String) -> Bool {
        var s = Substring(field)
        while let c = s.first {
            if c.isWhitespace {
                s = s.dropFirst()
                continue
            }
            guard c == "<", let close = s.firstIndex(of: ">") else { return false }
            var tag = s[s.index(after: s.startIndex)..<close].lowercased()
            if tag.hasPrefix("/") { tag.removeFirst() }
            if tag.hasSuffix("/") { tag.removeLast() }
            if tag.hasSuffix(" ") { tag.removeLast() }
            guard tag == "br" || tag == "div" else { return false }
            s = s[s.index(after: close)...]
        }
        return true
    }

    // MARK: HTML stripping

    /// `strip_html_preserving_media_filenames`: media tags become " filename ", then comments,
    /// style and script elements and all other tags go, then entities are decoded.
    public static func stripHTMLPreservingMediaFilenames(_ html: String) -> String {
        stripHTML(replacingMediaTags(html))
    }

    public static func stripHTML(_ html: String) -> String {
        decodeEntities(removingTags(html))
    }

    private static let mediaTagNames: Set<String> = ["img", "audio", "video", "object", "source"]

    private static func replacingMediaTags(_ html: String) -> String {
        guard html.contains("<") else { return html }
        var out = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let afterOpen = rest[rest.index(after: open)...]
            let name = afterOpen.prefix { $0.isLetter }.lowercased()
            if mediaTagNames.contains(name), let (file, end) = mediaSource(in: afterOpen) {
                out += " \(file) "
                rest = afterOpen[end...]
            } else {
                out += "<"
                rest = afterOpen
            }
        }
        out += rest
        return out
    }

    /// The `src`/`data` value of a media tag and the index just past the tag. Quotes are honoured
    /// before the attribute; after its value the tag ends at the next ">", as in Anki's regex.
    private static func mediaSource(in tag: Substring) -> (String, Substring.Index)? {
        var i = tag.startIndex
        var quote: Character?
        while i < tag.endIndex {
            let c = tag[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return nil
            } else if c == "=", let value = attributeValue(in: tag, equalsAt: i) {
                guard let close = tag[value.end...].firstIndex(of: ">") else { return nil }
                return (value.text, tag.index(after: close))
            }
            i = tag.index(after: i)
        }
        return nil
    }

    private static func attributeValue(in tag: Substring, equalsAt i: Substring.Index)
        -> (text: String, end: Substring.Index)?
    {
        let attr = tag[..<i].reversed().prefix { $0.isLetter }
        let name = String(attr.reversed()).lowercased()
        let before = tag[..<i].dropLast(attr.count).last
        guard name == "src" || name == "data", before.map({ !$0.isLetter && !$0.isNumber }) ?? false else { return nil }
        let start = tag.index(after: i)
        guard start < tag.endIndex else { return nil }
        if tag[start] == "\"" || tag[start] == "'" {
            let valueStart = tag.index(after: start)
            guard let close = tag[valueStart...].firstIndex(of: tag[start]), close > valueStart else { return nil }
            return (String(tag[valueStart..<close]), tag.index(after: close))
        }
        let end = tag[start...].firstIndex { $0 == " " || $0 == ">" } ?? tag.endIndex
        return end > start ? (String(tag[start..<end]), end) : nil
    }

    private static func removingTags(_ html: String) -> String {
        guard html.contains("<") else { return html }
        var out = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let tail = rest[open...]
            let lower = tail.prefix(9).lowercased()
            // Comments, style and script elements go whole; when unterminated they fall back
            // to plain tags, as the alternation in Anki's regex does.
            var end: Substring.Index?
            if lower.hasPrefix("<!--") {
                end = tail.range(of: "-->")?.upperBound
            } else if lower.hasPrefix("<style") {
                end = tail.range(of: "</style>", options: .caseInsensitive)?.upperBound
            } else if lower.hasPrefix("<script") {
                end = tail.range(of: "</script>", options: .caseInsensitive)?.upperBound
            }
            if end == nil { end = tail.firstIndex(of: ">").map { tail.index(after: $0) } }
            guard let end else {
                // An unclosed "<" is text, not a tag.
                out += "<"
                rest = tail.dropFirst()
                continue
            }
            rest = tail[end...]
        }
        out += rest
        return out
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "\u{2013}", "mdash": "\u{2014}", "hellip": "\u{2026}", "lsquo": "\u{2018}",
        "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "middot": "\u{B7}",
        "copy": "\u{A9}", "reg": "\u{AE}", "deg": "\u{B0}", "times": "\u{D7}", "shy": "\u{AD}",
    ]

    /// Decodes numeric and common named entities; Anki turns no-break spaces into spaces.
    /// Unknown entities stay as written (Anki's decoder knows all HTML 4 names; fields written
    /// by this product use the ones above).
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text.replacingOccurrences(of: "\u{A0}", with: " ") }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let tail = rest[rest.index(after: amp)...]
            if let semi = tail.prefix(12).firstIndex(of: ";") {
                let body = tail[..<semi]
                var decoded: String?
                if body.hasPrefix("#x") || body.hasPrefix("#X") {
                    decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if body.hasPrefix("#") {
                    decoded = UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = namedEntities[String(body)]
                }
                if let decoded {
                    out += decoded
                    rest = tail[tail.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = tail
        }
        out += rest
        return out.replacingOccurrences(of: "\u{A0}", with: " ")
    }
}

/// Field references in card templates (`{{Field}}`, `{{filter:Field}}`, `{{#Field}}`…), enough to
/// decide which cards a note gets and what `req` says, the way Anki's "any field" rule does.
enum TemplateFields {
    static let special: Set<String> = ["FrontSide", "Card", "CardFlag", "Deck", "Subdeck", "Tags", "Type", "CardID"]

    static func referencedNames(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "}}") else { break }
            var token = rest[..<close.lowerBound].trimmingCharacters(in: .whitespaces)[...]
            rest = rest[close.upperBound...]
            if let first = token.first, "#^/".contains(first) { token = token.dropFirst() }
            // Filters come before the field: "text:Word", "tts en_US:Word", "type:Word".
            if let colon = token.lastIndex(of: ":") { token = token[token.index(after: colon)...] }
            let name = token.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, !special.contains(name), !names.contains(name) { names.append(name) }
        }
        return names
    }
}

import Foundation

/// Anki's plain-text import format (File > Import on a .txt/.csv): header lines that preset the
/// import dialog, then one tab-separated row per note. Unlike an .apkg it cannot create the note
/// type or carry media: the note type named in `#notetype:` must already exist in the collection
/// and `[sound:…]` files must already be in its media folder.
///
/// Columns: 1 = guid (so a re-import updates the same notes), 2… = the note type's fields in
/// order, last = tags.
public enum AnkiCSVWriter {
    public static func text(noteType: AnkiNoteType, deckName: String, notes: [AnkiNote]) -> String {
        let guidColumn = 1
        let tagsColumn = noteType.fields.count + 2
        let labels = ["guid"] + noteType.fields + ["tags"]
        var out = ""
        // `#separator` must come first: Anki splits the `#columns` line with the separator
        // known when it reads that line.
        out += "#separator:Tab\n"
        out += "#html:true\n"
        out += "#columns:" + labels.map(quoted).joined(separator: "\t") + "\n"
        // Anki reads a value made only of digits as an id rather than a name.
        out += "#deck:" + headerValue(deckName) + "\n"
        out += "#notetype:" + headerValue(noteType.name) + "\n"
        out += "#guid column:\(guidColumn)\n"
        out += "#tags column:\(tagsColumn)\n"
        for note in notes {
            let fields = note.fields.map(AnkiText.normalizedField)
            let tags = PreparedPackage.canonicalTags(note.tags).joined(separator: " ")
            out += ([note.guid] + fields + [tags]).map(quoted).joined(separator: "\t") + "\n"
        }
        return out
    }

    /// RFC 4180 quoting as Anki's reader (the Rust `csv` crate, '#' comments) expects: quote a
    /// value holding the separator, a quote or a line break, doubling inner quotes; also quote one
    /// starting with '#', which at the start of a row would make the row a comment.
    static func quoted(_ value: String) -> String {
        let needsQuotes =
            value.hasPrefix("#")
            || value.contains { c in
                c == "\t" || c == "\"" || c == "\n" || c == "\r" || c == "\r\n"
            }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Header values end at the line break and are not unquoted, so line breaks become spaces.
    private static func headerValue(_ value: String) -> String {
        String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

import CLICore
import Catalog

/// One catalog word in full, as `vocab show` and `vocab library show` print it.
enum WordCard {
    /// `pictures`: the folder the catalog's picture files are in, so the card names the file.
    static func lines(_ w: Word, headerSuffix: String = "", categories: [String]? = nil, pictures: String? = nil) -> [String] {
        let sense = w.sense.map { " · \($0.en) (\($0.vi))" } ?? ""
        var lines = [
            "\(w.word)\(sense)  (\(w.pos.joined(separator: ", ")))\(headerSuffix)",
            "  British     /\(w.ipa.british)/",
            "  American    /\(w.ipa.american)/",
            "  Tiếng Việt  \(w.vi)",
            "  Levels      \(w.levels.map(\.rawValue).joined(separator: ", ")) (introduced at \(w.firstLevel.rawValue))",
            "  Categories  \((categories ?? w.categories).joined(separator: ", "))",
            "  Definition  \(w.definition.en)",
            "              \(w.definition.vi)",
            "  Examples",
        ]
        for (level, sentence) in w.orderedExamples { lines.append("    \(Output.pad(level.rawValue + ":", 10))\(sentence)") }
        // The emoji where a terminal draws one, and the drawing's file the web app and Anki show.
        let file = w.image.map { image in pictures.map { $0 + "/" + image } ?? image }
        let shown = [w.picture, file].compactMap { $0 }.joined(separator: "  ")
        if !shown.isEmpty { lines.insert("  Picture     \(shown)", at: 1) }
        return lines
    }
}

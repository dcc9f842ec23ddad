import CLICore
import Catalog

/// One catalog word in full, as `vocab show` and `vocab library show` print it.
enum WordCard {
    static func lines(_ w: Word, headerSuffix: String = "", categories: [String]? = nil) -> [String] {
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
        if let picture = w.picture { lines.insert("  Picture     \(picture)", at: 1) }
        return lines
    }
}

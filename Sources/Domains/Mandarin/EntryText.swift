/// Lays out an entry the way a monolingual dictionary does: each reading numbered (一), (二)…
/// as the dictionary's own cross references ("(一)之又音") expect, its senses grouped under their
/// part of speech 〔動〕, each sense followed by its examples, citations, links and related words.
public enum EntryText {
    /// `sound` writes a reading's pronunciation (the command line picks pinyin, bopomofo or
    /// both, perhaps coloured by tone); by default pinyin and bopomofo, plain.
    public static func lines(_ entry: DictionaryEntry, sound: ((Reading) -> String)? = nil) -> [String] {
        var out = [header(entry)]
        let numbered = entry.readings.count > 1
        for (index, reading) in entry.readings.enumerated() {
            out.append("")
            let label = numbered ? "(\(chineseNumber(index + 1))) " : ""
            let sound = sound?(reading) ?? [reading.pinyin, reading.bopomofo].compactMap { $0 }.joined(separator: "  ")
            out.append(label + (sound.isEmpty ? "(no pronunciation given)" : sound))
            out += senses(reading)
        }
        return out.map(MissingGlyph.shown)
    }

    static func header(_ entry: DictionaryEntry) -> String {
        var parts: [String] = []
        if let radical = entry.radical { parts.append("radical \(radical)") }
        if let strokes = entry.strokeCount {
            var text = "\(strokes) stroke\(strokes == 1 ? "" : "s")"
            if let rest = entry.nonRadicalStrokeCount { text += " (\(rest) beyond the radical)" }
            parts.append(text)
        }
        return parts.isEmpty ? entry.title : "\(entry.title)    \(parts.joined(separator: ", "))"
    }

    private static func senses(_ reading: Reading) -> [String] {
        var out: [String] = []
        let groups = reading.groups
        let single = reading.definitions.count == 1
        for group in groups {
            // Untyped senses (most words) need no heading, so they sit one level further out.
            var indent = "  "
            if let type = group.type {
                out.append("  〔\(type)〕" + (group.partOfSpeech.map { " \($0)" } ?? ""))
                indent = "    "
            }
            for (i, definition) in group.definitions.enumerated() {
                let number = single ? "" : "\(i + 1). "
                out.append(indent + number + definition.text)
                let more = indent + String(repeating: " ", count: number.count)
                for line in definition.examples + definition.quotes + definition.links { out.append(more + line) }
                if !definition.synonyms.isEmpty { out.append(more + "synonyms: " + definition.synonyms.joined(separator: ", ")) }
                if !definition.antonyms.isEmpty { out.append(more + "antonyms: " + definition.antonyms.joined(separator: ", ")) }
            }
        }
        return out
    }

    /// 1 → 一, 12 → 十二, 20 → 二十 (entries have at most a handful of readings).
    static func chineseNumber(_ n: Int) -> String {
        let digits = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
        guard n > 0, n < 100 else { return String(n) }
        if n < 10 { return digits[n] }
        let tens = n / 10
        let ones = n % 10
        return (tens == 1 ? "" : digits[tens]) + "十" + digits[ones]
    }
}

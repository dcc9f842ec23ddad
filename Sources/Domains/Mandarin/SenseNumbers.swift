/// Synonyms and antonyms the dictionary numbers by sense.
///
/// A word's related words are often written once and repeated on several senses, with an item
/// for another sense prefixed by its number: 一定 has "不定　3.未必  4.大概" on senses 1 and 2,
/// meaning 不定 for those, 未必 for sense 3 and 大概 for sense 4. Senses are numbered within
/// their reading (no numbered item occurs in a reading with more than one part of speech).
/// The stored lists stay as the source has them; this runs when an entry is read.
public enum SenseNumbers {
    public static func attach(_ definitions: [Definition]) -> [Definition] {
        let count = definitions.count
        // An item whose number names no sense of the reading stays, as written, where it is.
        func moves(_ item: String) -> Bool { split(item).map { (1...count).contains($0.0) } ?? false }
        guard definitions.contains(where: { $0.synonyms.contains(where: moves) || $0.antonyms.contains(where: moves) }) else {
            return definitions
        }
        var synonyms = definitions.map { $0.synonyms.filter { !moves($0) } }
        var antonyms = definitions.map { $0.antonyms.filter { !moves($0) } }
        for definition in definitions {
            for (number, word) in definition.synonyms.filter(moves).compactMap(split) where !synonyms[number - 1].contains(word) {
                synonyms[number - 1].append(word)
            }
            for (number, word) in definition.antonyms.filter(moves).compactMap(split) where !antonyms[number - 1].contains(word) {
                antonyms[number - 1].append(word)
            }
        }
        return definitions.enumerated().map { i, d in
            Definition(
                type: d.type, text: d.text, examples: d.examples, quotes: d.quotes, links: d.links,
                synonyms: synonyms[i], antonyms: antonyms[i])
        }
    }

    /// "3.未必" → (3, "未必"); also a full-width stop "3．未必".
    static func split(_ item: String) -> (Int, String)? {
        let digits = item.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let rest = item.dropFirst(digits.count)
        guard let stop = rest.first, stop == "." || stop == "．" else { return nil }
        let word = rest.dropFirst()
        return word.isEmpty ? nil : (number, String(word))
    }
}

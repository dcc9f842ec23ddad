/// The catalog's transcriptions (dictionary IPA: /ˈdɒktə/, /ˈdɑːktər/) written in the phones the
/// recogniser knows: an American-trained set with no length marks, `ɹ` for r, tied affricates
/// (`t͡ʃ`), `ɝ` for the r-coloured vowel and ASCII `g`. Measured on 564 people's recordings, the
/// recogniser never writes ː, ɚ, ɒ or ɡ; a British vowel it has no phone for is written as the
/// nearest one it has (ɒ as ɑ, əʊ as oʊ), so that a British speaker is not judged against a
/// sound the recogniser cannot hear.
public enum RecogniserPhones {
    /// Longest first where one spelling begins another (ɜːr before ɜː).
    static let table: [(String, String)] = [
        ("tʃ", "t͡ʃ"), ("dʒ", "d͡ʒ"), ("ɜːr", "ɝ"), ("ɜː", "ɝ"), ("ɜr", "ɝ"), ("ər", "ɝ"), ("ɚ", "ɝ"),
        ("əʊ", "oʊ"), ("oʊ", "oʊ"), ("eɪ", "eɪ"), ("aɪ", "aɪ"), ("aʊ", "aʊ"), ("ɔɪ", "ɔɪ"),
        ("eə", "ɛ"), ("ɪə", "ɪ"), ("ʊə", "ʊ"), ("iː", "i"), ("uː", "u"), ("ɑː", "ɑ"), ("ɔː", "ɔ"),
        ("ɒ", "ɑ"), ("e", "ɛ"), ("r", "ɹ"), ("ɡ", "g"),
    ]
    /// Stress, syllable breaks, word spaces and optional-sound brackets say nothing a recogniser hears.
    static let silent: Set<Character> = ["ˈ", "ˌ", ".", " ", "(", ")", "ː", "‿", "-"]

    /// The phones of one transcription, in order.
    public static func phones(_ ipa: String) -> [String] {
        var result: [String] = []
        var rest = Substring(ipa)
        while let first = rest.first {
            if silent.contains(first) {
                rest = rest.dropFirst()
                continue
            }
            if let (spelling, phone) = table.first(where: { rest.hasPrefix($0.0) }) {
                result.append(phone)
                rest = rest.dropFirst(spelling.count)
            } else {
                result.append(String(first))
                rest = rest.dropFirst()
            }
        }
        return result
    }
}

/// A reading cut into what it shows, for colouring by tone: "xíng rén" → xíng (2), " ",
/// rén (2); "ㄏㄤˊ　˙ㄐㄧㄚ" → ㄏㄤˊ (2), "　", ˙ㄐㄧㄚ (5). Pieces between syllables have no tone.
/// An unmarked pinyin syllable is neutral (5), an unmarked bopomofo one first tone, as written.
public enum ToneSyllables {
    public static func split(_ reading: String, pinyin: Bool) -> [(text: String, tone: Int?)] {
        var pieces: [(text: String, tone: Int?)] = []
        var current = ""
        func close() {
            guard !current.isEmpty else { return }
            let tones = ReadingKey.syllableTones(current, pinyin: pinyin)
            let tone = tones.count == 1 ? (tones[0].first ?? (pinyin ? 5 : 1)) : nil
            pieces.append((current, tone))
            current = ""
        }
        for ch in reading {
            if ch == " " || ch == "\u{3000}" {
                close()
                pieces.append((String(ch), nil))
            } else {
                current.append(ch)
            }
        }
        close()
        return pieces
    }
}

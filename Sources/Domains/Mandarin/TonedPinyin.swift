extension ReadingKey {
    /// Pinyin with its tones as numbers, one syllable per word: "háng" → "hang2",
    /// "xíng zhèng" → "xing2 zheng4", "hang2" → "hang2", "lǜ" → "lv4". A syllable without a
    /// tone mark or number is neutral ("5"). For matching a reading when the tone matters.
    public static func toned(_ text: String) -> String {
        var syllables: [String] = []
        var letters = ""
        var tone: Int?
        func close() {
            if !letters.isEmpty { syllables.append(letters + String(tone ?? 5)) }
            letters = ""
            tone = nil
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if let (base, t) = toneMarked[v] {
                letters.append(base)
                tone = t
            } else if let t = combiningTones[v] {
                tone = t
            } else if v == 0x308 || v == 0x3A { // combining diaeresis, "u:": ü
                if letters.hasSuffix("u") {
                    letters.removeLast()
                    letters.append("v")
                }
            } else if (0x31...0x35).contains(v) {
                tone = Int(v - 0x30)
                close()
            } else if let ascii = Character(scalar).lowercased().first, ascii.isASCII, ascii.isLetter {
                letters.append(ascii == "ü" ? "v" : ascii)
            } else if v == 0xFC || v == 0xDC {
                letters.append("v")
            } else {
                close()
            }
        }
        close()
        return syllables.joined(separator: " ")
    }

    /// Vowels (and n, m) with a tone mark: the plain letter and the tone.
    static let toneMarked: [UInt32: (Character, Int)] = {
        var table: [UInt32: (Character, Int)] = [:]
        let groups: [(Character, String)] = [
            ("a", "āáǎà"), ("e", "ēéěè"), ("i", "īíǐì"), ("o", "ōóǒò"), ("u", "ūúǔù"), ("v", "ǖǘǚǜ"),
            ("a", "ĀÁǍÀ"), ("e", "ĒÉĚÈ"), ("i", "ĪÍǏÌ"), ("o", "ŌÓǑÒ"), ("u", "ŪÚǓÙ"), ("v", "ǕǗǙǛ"),
        ]
        for (base, marked) in groups {
            for (i, scalar) in marked.unicodeScalars.enumerated() { table[scalar.value] = (base, i + 1) }
        }
        for (scalar, tone) in [("ń", 2), ("ň", 3), ("ǹ", 4), ("ḿ", 2)] { table[scalar.unicodeScalars.first!.value] = (scalar == "ḿ" ? "m" : "n", tone) }
        return table
    }()

    /// Combining macron, acute, caron, grave.
    static let combiningTones: [UInt32: Int] = [0x304: 1, 0x301: 2, 0x30C: 3, 0x300: 4]
}

/// The tones a reading query asks for, syllable by syllable, for `--tones`.
///
/// Syllables are split exactly as `ReadingKey` splits them, so the n-th syllable here is the
/// n-th of the key the index matched. A pinyin syllable typed without a mark or number asks
/// for no tone in particular; in bopomofo an unmarked syllable is first tone, as zhuyin is
/// written. Stored readings are read the same way, except that an unmarked pinyin syllable is
/// neutral (5).
public struct ToneQuery: Sendable {
    /// Per syllable: the tones it must have (empty: any).
    let wanted: [[Int]]
    let isPinyin: Bool

    public init(pinyin: String) {
        wanted = ReadingKey.syllableTones(pinyin, pinyin: true)
        isPinyin = true
    }

    public init(bopomofo: String) {
        wanted = ReadingKey.syllableTones(bopomofo, pinyin: false).map { $0.isEmpty ? [1] : $0 }
        isPinyin = false
    }

    /// Whether a stored reading (pinyin or bopomofo, as the query) has the tones asked for.
    public func matches(_ reading: String?) -> Bool {
        guard let reading else { return false }
        let have = ReadingKey.syllableTones(reading, pinyin: isPinyin).map { $0.isEmpty ? [isPinyin ? 5 : 1] : $0 }
        for (i, tones) in wanted.enumerated() where !tones.isEmpty {
            guard i < have.count, have[i] == tones else { return false }
        }
        return true
    }
}

extension ReadingKey {
    /// The tones written in each syllable of `text`, split as the search key splits it:
    /// "xíng zheng4" → [[2], [4]], "xing" → [[]], "ㄒㄧㄥˊ　˙ㄗ" → [[2], [5]].
    static func syllableTones(_ text: String, pinyin: Bool) -> [[Int]] {
        var syllables: [[Int]] = []
        var tones: [Int] = []
        var hasLetters = false
        func close() {
            if hasLetters {
                syllables.append(tones)
                tones = []
            }
            hasLetters = false
        }
        var text = text
        text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let (scalar, length) = decodeScalar(bytes, at: i)
                i += length
                if scalar == 0x28 || scalar == 0xFF08 { // a note in parentheses, as the key skips it
                    var soundChange = false
                    while i < bytes.count {
                        let (inner, n) = decodeScalar(bytes, at: i)
                        i += n
                        if inner == 0x8B8A { soundChange = true }
                        if inner == 0x29 || inner == 0xFF09 { break }
                    }
                    if soundChange { break }
                    close()
                    continue
                }
                if let tone = Self.tone(of: scalar, pinyin: pinyin) {
                    tones.append(tone)
                    if pinyin, toneMarked[scalar] != nil { hasLetters = true }
                    continue
                }
                switch pinyin ? pinyinLetter(scalar) : bopomofoLetter(scalar) {
                case .append: hasLetters = true
                case .skip, .umlautPrevious: break
                case .separator: close()
                }
            }
        }
        close()
        return syllables
    }

    /// The tone a scalar writes: a tone number, a pinyin tone mark (precomposed or combining),
    /// or a zhuyin tone mark.
    private static func tone(of scalar: UInt32, pinyin: Bool) -> Int? {
        if (0x31...0x35).contains(scalar) { return Int(scalar - 0x30) }
        if pinyin {
            if let (_, tone) = toneMarked[scalar] { return tone }
            return combiningTones[scalar]
        }
        switch scalar {
        case 0x02C9: return 1 // ˉ
        case 0x02CA: return 2 // ˊ
        case 0x02C7: return 3 // ˇ
        case 0x02CB: return 4 // ˋ
        case 0x02D9: return 5 // ˙
        default: return nil
        }
    }
}

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
            } else if v == 0x308 || v == 0x3A {   // combining diaeresis, "u:": ü
                if letters.hasSuffix("u") { letters.removeLast(); letters.append("v") }
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

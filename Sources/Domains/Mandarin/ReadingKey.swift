import JSONReading

/// Search keys for readings, so learners can type without tone marks.
///
/// A key drops tones, folds case and separates syllables with one ASCII space:
/// "xíng zhèng" → "xing zheng", "（又音）ㄒㄧㄥˇ" → "ㄒㄧㄥ". The importer stores a key for every
/// reading and the search commands key the query the same way, so both sides always agree.
///
/// The dictionary writes alternative pronunciations into the reading itself: a prefix such as
/// "（又音）" (variant), "（讀音）" (literary) or "（語音）" (colloquial) is dropped, and a second
/// reading after "(變)" (a sound change in fast speech) is cut off, so the key is the reading
/// a learner would look up.
public enum ReadingKey {
    /// "Lǜ" → "lv", "xing2" → "xing", "nu:3" → "nv", "Xī'ān" → "xi an".
    public static func pinyin(_ text: String) -> String {
        key(text, pinyin: true)
    }

    /// "ㄒㄧㄥˊ　ㄓㄥˋ" → "ㄒㄧㄥ ㄓㄥ".
    public static func bopomofo(_ text: String) -> String {
        key(text, pinyin: false)
    }

    static func pinyin(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        build(bytes, into: &out, letter: pinyinLetter)
    }

    static func bopomofo(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        build(bytes, into: &out, letter: bopomofoLetter)
    }

    private static func key(_ text: String, pinyin: Bool) -> String {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { build($0, into: &out, letter: pinyin ? pinyinLetter : bopomofoLetter) }
        return String(decoding: out, as: UTF8.self)
    }

    /// What one scalar contributes to a key.
    enum Contribution {
        case append(UInt32)
        /// Tone marks and tone numbers.
        case skip
        /// Marks the previous "u" as ü: a combining diaeresis, or the ":" of "u:".
        case umlautPrevious
        case separator
    }

    /// Walks the scalars of valid UTF-8, appending the key to `out`.
    private static func build(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], letter: (UInt32) -> Contribution) {
        let start = out.count
        var pendingSpace = false
        var i = 0
        while i < bytes.count {
            let (scalar, length) = decodeScalar(bytes, at: i)
            i += length
            if scalar == 0x28 || scalar == 0xFF08 { // ( or （
                let (after, isSoundChange) = skipParenthetical(bytes, from: i)
                if isSoundChange { break }
                i = after
                pendingSpace = out.count > start
                continue
            }
            switch letter(scalar) {
            case .append(let value):
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                appendUTF8(value, to: &out)
            case .skip:
                break
            case .umlautPrevious:
                if out.count > start, out[out.count - 1] == UInt8(ascii: "u") { out[out.count - 1] = UInt8(ascii: "v") }
            case .separator:
                pendingSpace = out.count > start
            }
        }
    }

    /// Skips to after the closing parenthesis; reports whether the note was "變".
    private static func skipParenthetical(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool) {
        var i = start
        var isSoundChange = false
        while i < bytes.count {
            let (scalar, length) = decodeScalar(bytes, at: i)
            i += length
            if scalar == 0x8B8A { isSoundChange = true } // 變
            if scalar == 0x29 || scalar == 0xFF09 { return (i, isSoundChange) }
        }
        return (i, isSoundChange)
    }

    static func pinyinLetter(_ scalar: UInt32) -> Contribution {
        switch scalar {
        case 0x61...0x7A: return .append(scalar) // a-z
        case 0x41...0x5A: return .append(scalar + 0x20) // A-Z
        case 0xFF41...0xFF5A: return .append(scalar - 0xFF41 + 0x61) // fullwidth a-z from some input methods
        case 0xFF21...0xFF3A: return .append(scalar - 0xFF21 + 0x61)
        case 0x30...0x39: return .skip // tone numbers
        case 0x300...0x36F: return scalar == 0x308 ? .umlautPrevious : .skip // combining marks
        case 0x3A: return .umlautPrevious // "u:" for ü
        default: break
        }
        if let base = toneless(scalar) { return .append(UInt32(base)) }
        return .separator
    }

    static func bopomofoLetter(_ scalar: UInt32) -> Contribution {
        switch scalar {
        case 0x3105...0x312F, 0x31A0...0x31BF: return .append(scalar)
        case 0x02CA, 0x02C7, 0x02CB, 0x02D9, 0x02C9: return .skip // ˊ ˇ ˋ ˙ ˉ
        case 0x30...0x39: return .skip
        case 0xFF5C: return .append(0x3127) // "｜", the vertical form of ㄧ, appears once in the data
        default: return .separator
        }
    }

    /// Pinyin letters with tone marks (and ü, ê, alpha, script g) to the plain ASCII letter.
    /// A switch rather than a table: it runs for every accented letter of a full import.
    private static func toneless(_ scalar: UInt32) -> UInt8? {
        switch scalar {
        case 0x101, 0xE1, 0x1CE, 0xE0, 0x100, 0xC1, 0x1CD, 0xC0, 0x251: return UInt8(ascii: "a") // āáǎàĀÁǍÀɑ
        case 0x113, 0xE9, 0x11B, 0xE8, 0x112, 0xC9, 0x11A, 0xC8, 0xEA, 0xCA, 0x1EBF, 0x1EC1, 0x1EBE, 0x1EC0: return UInt8(ascii: "e") // ēéěèĒÉĚÈêÊếềẾỀ
        case 0x12B, 0xED, 0x1D0, 0xEC, 0x12A, 0xCD, 0x1CF, 0xCC: return UInt8(ascii: "i") // īíǐìĪÍǏÌ
        case 0x14D, 0xF3, 0x1D2, 0xF2, 0x14C, 0xD3, 0x1D1, 0xD2: return UInt8(ascii: "o") // ōóǒòŌÓǑÒ
        case 0x16B, 0xFA, 0x1D4, 0xF9, 0x16A, 0xDA, 0x1D3, 0xD9: return UInt8(ascii: "u") // ūúǔùŪÚǓÙ
        case 0xFC, 0x1D6, 0x1D8, 0x1DA, 0x1DC, 0xDC, 0x1D5, 0x1D7, 0x1D9, 0x1DB: return UInt8(ascii: "v") // üǖǘǚǜÜǕǗǙǛ
        case 0x144, 0x148, 0x1F9, 0x143, 0x147, 0x1F8: return UInt8(ascii: "n") // ńňǹŃŇǸ
        case 0x1E3F, 0x1E3E: return UInt8(ascii: "m") // ḿḾ
        case 0x261: return UInt8(ascii: "g") // ɡ
        default: return nil
        }
    }

    /// Decodes the scalar at `i` of valid UTF-8.
    @inline(__always)
    static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[i])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0, i + 1 < bytes.count {
            return ((lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2)
        }
        if lead < 0xF0, i + 2 < bytes.count {
            return ((lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        if i + 3 < bytes.count {
            return ((lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F), 4)
        }
        return (0xFFFD, bytes.count - i)
    }
}

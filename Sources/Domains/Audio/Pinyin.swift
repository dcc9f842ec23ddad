import TextMatching

/// Readings of Mandarin entries as the MOE dictionary gives them ("yín háng", "（讀音）lù"),
/// made speakable, comparable and usable in file names.
public enum Pinyin {
    /// The syllables alone: annotations in brackets ("（讀音）", "(又音)") and punctuation
    /// removed, spaces collapsed. "（讀音）lù" → "lù"; "yī yán，wéi dìng" → "yī yán wéi dìng".
    public static func clean(_ reading: String) -> String {
        var out = ""
        var depth = 0
        for ch in reading {
            switch ch {
            case "（", "(", "［", "[": depth += 1
            case "）", ")", "］", "]": depth = max(0, depth - 1)
            default:
                guard depth == 0 else { continue }
                if ch.isLetter, ch.unicodeScalars.allSatisfy({ $0.value < 0x2E80 }) {
                    out.append(ch)
                } else if ch.isNumber, ch.isASCII {
                    out.append(ch)
                } else if !out.isEmpty, out.last != " " {
                    out.append(" ")
                }
            }
        }
        while out.last == " " { out.removeLast() }
        return out
    }

    /// Tone marks as digits after each syllable, ü as v, lower case: "Yín háng" → "yin2 hang2",
    /// "lǜ" → "lv4"; a neutral tone has no digit ("jia"). Numbered input stays as it is.
    public static func numbered(_ reading: String) -> String {
        clean(reading).split(separator: " ").map { syllable -> String in
            var tone: Int?
            var out = ""
            for scalar in String(syllable).lowercased().decomposedScalars {
                switch scalar.value {
                case 0x0304: tone = 1 // macron
                case 0x0301: tone = 2 // acute
                case 0x030C: tone = 3 // caron
                case 0x0300: tone = 4 // grave
                case 0x0308: out.append("v") // diaeresis: u + ¨ is ü, written v
                default: out.unicodeScalars.append(scalar)
                }
            }
            // "u" followed by the diaeresis became "uv": that is ü.
            out = out.replacingOccurrences(of: "uv", with: "v")
            if let tone, !(out.last?.isNumber ?? false) { out += String(tone) }
            return out
        }.joined(separator: " ")
    }

    /// Whether two readings are the same, in any of their spellings (marks or digits, any case,
    /// with or without annotations).
    public static func same(_ a: String, _ b: String) -> Bool {
        let x = numbered(a)
        let y = numbered(b)
        return !x.isEmpty && x == y
    }

    /// For file names: the numbered reading with `_` between syllables ("yin2_hang2").
    public static func fileName(_ reading: String) -> String {
        let n = numbered(reading)
        return n.isEmpty ? "reading" : n.replacingOccurrences(of: " ", with: "_")
    }
}

extension String {
    /// Canonical decomposition, so a tone mark is a scalar of its own after its vowel.
    fileprivate var decomposedScalars: [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for scalar in unicodeScalars {
            out += Pinyin.decompose(scalar)
        }
        return out
    }
}

extension Pinyin {
    /// The vowels pinyin writes with tone marks, decomposed (FoundationEssentials has no
    /// Unicode normalisation API, and this is the whole of what pinyin needs).
    static func decompose(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let marks: [Character: (Character, UInt32)] = [
            "ā": ("a", 0x304), "á": ("a", 0x301), "ǎ": ("a", 0x30C), "à": ("a", 0x300),
            "ē": ("e", 0x304), "é": ("e", 0x301), "ě": ("e", 0x30C), "è": ("e", 0x300),
            "ī": ("i", 0x304), "í": ("i", 0x301), "ǐ": ("i", 0x30C), "ì": ("i", 0x300),
            "ō": ("o", 0x304), "ó": ("o", 0x301), "ǒ": ("o", 0x30C), "ò": ("o", 0x300),
            "ū": ("u", 0x304), "ú": ("u", 0x301), "ǔ": ("u", 0x30C), "ù": ("u", 0x300),
            "ǖ": ("v", 0x304), "ǘ": ("v", 0x301), "ǚ": ("v", 0x30C), "ǜ": ("v", 0x300), "ü": ("v", 0),
            "ḿ": ("m", 0x301), "ń": ("n", 0x301), "ň": ("n", 0x30C), "ǹ": ("n", 0x300),
            "ê": ("e", 0), "ế": ("e", 0x301), "ề": ("e", 0x300),
        ]
        if let (base, mark) = marks[Character(scalar)] {
            return mark == 0 ? base.unicodeScalars.map { $0 } : base.unicodeScalars.map { $0 } + [Unicode.Scalar(mark)!]
        }
        return [scalar]
    }
}

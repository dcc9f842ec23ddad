/// Text matching for search and suggestions: accent folding and edit distance. Shared by the
/// catalog, clip naming and input checks, so it sits below all of them.
public enum SearchText {
    /// Lower case without diacritics (đ becomes d), for accent-insensitive matching.
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            // Marks already apart from their letter (decomposed input) are dropped as well.
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            out.append(scalar.isASCII ? scalar : baseLetters[scalar] ?? scalar)
        }
        return String(out)
    }

    /// Precomposed lower-case Latin letters (Latin-1 to Latin Extended Additional, which holds
    /// Vietnamese; đ, which has no decomposition, is folded to d on purpose) mapped to their base letter: what canonical decomposition and dropping the
    /// marks gives, without the Unicode tables of Foundation's internationalization library,
    /// which would double the size and start-up time of the catalog commands. A test checks
    /// the table against Foundation's decomposition.
    static let baseLetters: [Unicode.Scalar: Unicode.Scalar] = {
        let groups: [(Unicode.Scalar, String)] = [
            ("a", "àáâãäåāăąǎǟǡǻȁȃȧḁạảấầẩẫậắằẳẵặ"), ("b", "ḃḅḇ"), ("c", "çćĉċčḉ"), ("d", "ďḋḍḏḑḓđ"),
            ("e", "èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệ"), ("f", "ḟ"), ("g", "ĝğġģǧǵḡ"), ("h", "ĥȟḣḥḧḩḫẖ"),
            ("i", "ìíîïĩīĭįǐȉȋḭḯỉị"), ("j", "ĵǰ"), ("k", "ķǩḱḳḵ"), ("l", "ĺļľḷḹḻḽ"), ("m", "ḿṁṃ"),
            ("n", "ñńņňǹṅṇṉṋ"), ("o", "òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợ"), ("p", "ṕṗ"),
            ("r", "ŕŗřȑȓṙṛṝṟ"), ("s", "śŝşšșṡṣṥṧṩ"), ("t", "ţťțṫṭṯṱẗ"),
            ("u", "ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự"), ("v", "ṽṿ"), ("w", "ŵẁẃẅẇẉẘ"), ("x", "ẋẍ"),
            ("y", "ýÿŷȳẏẙỳỵỷỹ"), ("z", "źżžẑẓẕ"), ("æ", "ǣǽ"), ("ø", "ǿ"), ("ʒ", "ǯ"), ("ſ", "ẛ"),
        ]
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (base, letters) in groups {
            for letter in letters.unicodeScalars { table[letter] = base }
        }
        return table
    }()

    /// Levenshtein distance, for "did you mean" suggestions.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The candidates closest to `text`: containing it, or within a few edits, best first.
    public static func closest(to text: String, in candidates: [String], limit: Int = 3) -> [String] {
        let needle = fold(text)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let c = fold(candidate)
            if c.hasPrefix(needle) || needle.hasPrefix(c) { return (candidate, 0) }
            if c.contains(needle) { return (candidate, 1) }
            let d = distance(needle, c)
            return d <= max(2, needle.count / 3) ? (candidate, 1 + d) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }
}

extension String {
    /// Without leading and trailing white space (what users add around typed words).
    public var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}

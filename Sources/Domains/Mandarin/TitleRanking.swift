/// Orders candidate titles by how close they are to what was typed.
///
/// Distance is counted in characters (Unicode scalars), not bytes, so one wrong character in a
/// Chinese word costs 1, as it would in an English one.
public enum TitleRanking {
    public static func closest(to query: String, among candidates: [String], limit: Int) -> [String] {
        let target = Array(query.unicodeScalars)
        let scored = candidates.map { title -> (String, Int, Int) in
            let scalars = Array(title.unicodeScalars)
            return (title, distance(target, scalars), abs(scalars.count - target.count))
        }
        return scored
            .sorted { a, b in
                if a.1 != b.1 { return a.1 < b.1 }
                if a.2 != b.2 { return a.2 < b.2 }
                return a.0 < b.0
            }
            .prefix(limit)
            .map(\.0)
    }

    /// Levenshtein distance with two rows.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

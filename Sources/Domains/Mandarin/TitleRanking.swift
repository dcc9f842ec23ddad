/// Orders candidate titles by how close they are to what was typed.
///
/// Distance is counted in characters (Unicode scalars), not bytes, so one wrong character in a
/// Chinese word costs 1, as it would in an English one.
public enum TitleRanking {
    /// What a missed title's suggestions are made of, the same on both engines: titles that
    /// start with its first character (the closest `firstCount`), then titles one character
    /// shorter to one longer that contain any of its other characters (up to six of them).
    public struct SuggestionQuery: Sendable {
        public let title: String
        public let limit: Int
        /// Titles in [lower, upper) share the first character; nil when it is the last scalar.
        public let sameStart: (lower: String, upper: String)?
        public let others: [String]
        public let lengths: ClosedRange<Int>

        public init(title: String, limit: Int) {
            self.title = title
            self.limit = limit
            let first = title.unicodeScalars.first
            sameStart = first.flatMap { f in Unicode.Scalar(f.value + 1).map { (String(f), String($0)) } }
            var others: [String] = []
            for scalar in title.unicodeScalars.dropFirst() where !others.contains(String(scalar)) { others.append(String(scalar)) }
            self.others = Array(others.prefix(6))
            let length = title.unicodeScalars.count
            lengths = max(1, length - 1)...(length + 1)
        }

        public var isEmpty: Bool { title.unicodeScalars.isEmpty }

        /// The closest of the titles sharing the first character.
        public func first(from sameStartTitles: [String]) -> [String] {
            TitleRanking.closest(to: title, among: sameStartTitles, limit: min(5, limit))
        }

        /// Whether to look for titles with the other characters, after `first`.
        public func wantsSimilar(after first: [String]) -> Bool { !others.isEmpty && first.count < limit }

        /// `first`, then the closest of the similar titles not already in it.
        public func combine(_ first: [String], similar: [String]) -> [String] {
            let fresh = similar.filter { !first.contains($0) }
            return first + TitleRanking.closest(to: title, among: fresh, limit: limit - first.count)
        }
    }

    public static func closest(to query: String, among candidates: [String], limit: Int) -> [String] {
        let target = Array(query.unicodeScalars)
        let scored = candidates.map { title -> (String, Int, Int) in
            let scalars = Array(title.unicodeScalars)
            return (title, distance(target, scalars), abs(scalars.count - target.count))
        }
        return
            scored
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

extension String {
    /// Whether `needle` occurs in this string, compared byte for byte in UTF-8. The standard
    /// `contains` compares Characters (grapheme breaking, generic searchers): for a JSON body
    /// looked through on every row of `vocab words` it was an eighth of the launcher's time. The
    /// HTTP server checks request paths with it too.
    public func containsBytes(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        var text = self
        return text.withUTF8 { hay in
            guard let first = pattern.first else { return true }
            guard hay.count >= pattern.count else { return false }
            var i = 0
            while i <= hay.count - pattern.count {
                if hay[i] == first {
                    var j = 1
                    while j < pattern.count && hay[i + j] == pattern[j] { j += 1 }
                    if j == pattern.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}

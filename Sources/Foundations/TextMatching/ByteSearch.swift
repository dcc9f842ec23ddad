extension String {
    /// Whether `needle` occurs in this string, compared byte for byte in UTF-8. The standard
    /// `contains` compares Characters (grapheme breaking, generic searchers): for a JSON body
    /// looked through on every row of `vocab words` it was an eighth of the launcher's time.
    public func containsBytes(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        if let found = utf8.withContiguousStorageIfAvailable({ Self.find(pattern, first, in: $0) }) { return found }
        return Array(utf8).withUnsafeBufferPointer { Self.find(pattern, first, in: $0) }
    }

    private static func find(_ pattern: UnsafeBufferPointer<UInt8>, _ first: UInt8, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count >= pattern.count else { return false }
        var i = 0
        let last = text.count - pattern.count
        while i <= last {
            if text[i] == first {
                var j = 1
                while j < pattern.count && text[i + j] == pattern[j] { j += 1 }
                if j == pattern.count { return true }
            }
            i += 1
        }
        return false
    }
}

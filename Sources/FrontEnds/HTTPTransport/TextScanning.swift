import TextMatching

/// Byte-level text helpers for the request path. Foundation's string functions go through
/// NSString on Linux and cost more than everything else a cached response needs, so the
/// checks every request makes are done here on UTF-8 bytes.
public enum TextScanning {
    /// Decodes `%XX` escapes (and `+` as a space when asked); nil when an escape is malformed
    /// or the bytes are not UTF-8. Text without escapes is returned as it is.
    public static func percentDecode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h != utf8.endIndex else { return nil }
                let l = utf8.index(after: h)
                guard l != utf8.endIndex, let hi = hexValue(utf8[h]), let lo = hexValue(utf8[l]) else { return nil }
                bytes.append(hi << 4 | lo)
                i = utf8.index(after: l)
                continue
            }
            bytes.append(plusAsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i = utf8.index(after: i)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    public static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Whether a segment of the path is "." or "..".
    public static func hasDotSegment(_ path: String) -> Bool {
        guard path.containsBytes(".") else { return false }
        return path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { segment in
            segment.count <= 2 && !segment.isEmpty && segment.allSatisfy { $0 == UInt8(ascii: ".") }
        }
    }
}

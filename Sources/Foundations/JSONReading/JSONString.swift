/// A JSON string as the reader found it: the bytes between the quotes, escapes still in place.
///
/// Almost no dictionary string has an escape, so keeping the raw slice and unescaping only on
/// use spares the importer a copy of every string it stores. The bytes were validated by
/// `JSONReader`, so unescaping cannot fail.
public struct JSONString {
    /// The bytes between the quotes, exactly as in the input; itself valid JSON string content.
    public let raw: UnsafeBufferPointer<UInt8>
    public let hasEscapes: Bool

    public init(raw: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) {
        self.raw = raw
        self.hasEscapes = hasEscapes
    }

    public var isEmpty: Bool { raw.isEmpty }

    /// Calls `body` with the decoded UTF-8 bytes, decoding into `scratch` only when needed.
    @inline(__always)
    public func withBytes<R>(scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if !hasEscapes { return try body(raw) }
        scratch.removeAll(keepingCapacity: true)
        unescape(into: &scratch)
        return try scratch.withUnsafeBufferPointer(body)
    }

    /// The decoded text.
    public var string: String {
        if !hasEscapes { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        unescape(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the raw bytes spell `ascii` (member names never need unescaping in practice,
    /// but an escaped name is compared decoded, as JSON requires).
    ///
    /// Inlined into callers, which compare every member name against a list of constants: the
    /// length check then rejects most of them before a byte is read.
    @inlinable @inline(__always)
    public func equals(_ ascii: StaticString) -> Bool {
        if hasEscapes { return decodedEquals(ascii) }
        let count = ascii.utf8CodeUnitCount
        guard raw.count == count, let start = raw.baseAddress else { return raw.count == count }
        let bytes = ascii.utf8Start
        var i = 0
        while i < count {
            if start[i] != bytes[i] { return false }
            i += 1
        }
        return true
    }

    @usableFromInline
    func decodedEquals(_ ascii: StaticString) -> Bool { string == ascii.description }

    /// Appends the decoded bytes; a lone surrogate becomes U+FFFD, as in Swift strings.
    public func unescape(into out: inout [UInt8]) {
        var i = 0
        let count = raw.count
        while i < count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must pair with a following \uDC00-\uDFFF escape.
                    if i + 5 < count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u") {
                        let low = hex4(at: i + 2)
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                appendUTF8(scalar, to: &out)
            default: out.append(kind) // \" \\ \/
            }
        }
    }

    private func hex4(at i: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value = value << 4 | UInt32(Self.hexValue(raw[i + k]) ?? 0) }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Appends the UTF-8 encoding of a scalar value (assumed valid).
@inlinable @inline(__always)
public func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
        out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | scalar >> 6))
        out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | scalar >> 12))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    default:
        out.append(UInt8(0xF0 | scalar >> 18))
        out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) as ZIP requires.
/// Own table code: the module may not depend on zlib.
public struct CRC32: Sendable {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var c = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        }
        state = c
    }

    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// SHA-1 (FIPS 180-4). Anki keys note checksums (`csum`) on it; it is not used for security here.
public struct SHA1: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length &+= UInt64(bytes.count)
        pending.append(contentsOf: bytes)
        var offset = 0
        while pending.count - offset >= 64 {
            compress(pending[offset..<offset + 64])
            offset += 64
        }
        pending.removeFirst(offset)
    }

    /// The 20-byte digest. Call once: the state is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        for start in stride(from: 0, to: tail.count, by: 64) { compress(tail[start..<start + 64]) }
        pending = []
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            out += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return out
    }

    public static func digest<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var sha = SHA1()
        sha.update(bytes)
        return sha.finalize()
    }

    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        digest(bytes).map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = [UInt32](repeating: 0, count: 80)
        var i = block.startIndex
        for t in 0..<16 {
            w[t] = UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16 | UInt32(block[i + 2]) << 8 | UInt32(block[i + 3])
            i += 4
        }
        for t in 16..<80 {
            let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
            w[t] = (x << 1) | (x >> 31)
        }
        var (a, b, c, d, e) = h
        for t in 0..<80 {
            let f: UInt32, k: UInt32
            switch t {
            case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
            case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
            case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
            default: f = b ^ c ^ d; k = 0xCA62_C1D6
            }
            let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[t]
            e = d
            d = c
            c = (b << 30) | (b >> 2)
            b = a
            a = temp
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
}

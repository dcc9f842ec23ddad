/// A JSON syntax or shape problem at a byte offset of the input.
///
/// The reader knows only offsets; callers turn them into a line and column with
/// `SourcePosition`, which only an error needs, so the fast path never counts lines.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not JSON at all (RFC 8259).
        case syntax
        /// Valid JSON, but not the structure the caller expects.
        case shape
    }

    public let kind: Kind
    public let message: String
    public let offset: Int

    public init(_ kind: Kind, _ message: String, at offset: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (byte \(offset))" }
}

/// What the next value is, judged from its first byte.
public enum JSONValueKind: Sendable, Equatable {
    case object, array, string, number, bool, null
}

/// A pull parser over UTF-8 bytes that validates as it goes and never builds a tree.
///
/// Large inputs (the 61 MB dictionary) stream through it with no allocation per value:
/// strings come back as slices of the input (`JSONString`), unescaped only when used. The input
/// must outlive the reader and every `JSONString` it returns.
public struct JSONReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    /// Index of the next unread byte.
    public private(set) var offset: Int = 0
    /// Containers nested deeper than this are refused, so hostile input cannot exhaust the stack.
    public var maximumDepth = 512
    private var depth = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no base address; any valid pointer works when end is 0.
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = bytes.count
    }

    public var input: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: end) }

    // MARK: - Structure

    /// The kind of the next value, after skipping whitespace; fails if no value can start here.
    public mutating func peek() throws -> JSONValueKind {
        skipWhitespace()
        guard offset < end else { throw unexpectedEnd("a value") }
        switch base[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw unexpected("a value")
        }
    }

    /// Reads an array, calling `body` once per element with the reader placed on it.
    /// `body` must consume exactly one value.
    public mutating func forEachElement(_ body: (inout JSONReader) throws -> Void) throws {
        try open(UInt8(ascii: "["), "'['")
        defer { depth -= 1 }
        skipWhitespace()
        if offset < end, base[offset] == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try body(&self)
            skipWhitespace()
            guard offset < end else { throw unexpectedEnd("',' or ']'") }
            let byte = base[offset]
            offset += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { return }
            offset -= 1
            throw unexpected("',' or ']' after an array element")
        }
    }

    /// Reads an object, calling `body` with each key and the reader placed on its value.
    /// `body` must consume exactly one value (call `skipValue()` for keys it does not want).
    public mutating func forEachMember(_ body: (inout JSONReader, JSONString) throws -> Void) throws {
        try open(UInt8(ascii: "{"), "'{'")
        defer { depth -= 1 }
        skipWhitespace()
        if offset < end, base[offset] == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            guard offset < end else { throw unexpectedEnd("a member name") }
            guard base[offset] == UInt8(ascii: "\"") else { throw unexpected("a member name in double quotes") }
            let key = try scanString()
            skipWhitespace()
            guard offset < end else { throw unexpectedEnd("':'") }
            guard base[offset] == UInt8(ascii: ":") else { throw unexpected("':' after the member name") }
            offset += 1
            try body(&self, key)
            skipWhitespace()
            guard offset < end else { throw unexpectedEnd("',' or '}'") }
            let byte = base[offset]
            offset += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { return }
            offset -= 1
            throw unexpected("',' or '}' after an object member")
        }
    }

    /// Checks that only whitespace follows the top-level value.
    public mutating func finish() throws {
        skipWhitespace()
        if offset < end { throw unexpected("the end of the input after the top-level value") }
    }

    // MARK: - Scalars

    public mutating func readString() throws -> JSONString {
        skipWhitespace()
        guard offset < end else { throw unexpectedEnd("a string") }
        guard base[offset] == UInt8(ascii: "\"") else { throw shapeError("expected a string, found \(try describeNext())") }
        return try scanString()
    }

    /// Reads a number that must be a whole number fitting in 64 bits.
    public mutating func readInteger() throws -> Int64 {
        skipWhitespace()
        guard offset < end else { throw unexpectedEnd("a number") }
        let start = offset
        let byte = base[offset]
        guard byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
            throw shapeError("expected a whole number, found \(try describeNext())")
        }
        let isIntegral = try scanNumber()
        guard isIntegral, let value = JSONReader.integer(UnsafeBufferPointer(start: base + start, count: offset - start)) else {
            throw JSONError(
                .shape, "expected a whole number, found \(String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self))",
                at: start)
        }
        return value
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws -> Bool {
        guard try peek() == .bool else { throw shapeError("expected true or false, found \(try describeNext())") }
        let value = base[offset] == UInt8(ascii: "t")
        try expectLiteral(value ? "true" : "false")
        return value
    }

    /// Reads any number: whole numbers that fit in 64 bits exactly, others as a Double.
    public mutating func readNumber() throws -> (integer: Int64?, value: Double) {
        guard try peek() == .number else { throw shapeError("expected a number, found \(try describeNext())") }
        let start = offset
        let isIntegral = try scanNumber()
        let digits = UnsafeBufferPointer(start: base + start, count: offset - start)
        if isIntegral, let integer = JSONReader.integer(digits) { return (integer, Double(integer)) }
        return (nil, Double(String(decoding: digits, as: UTF8.self)) ?? .nan)
    }

    /// Consumes a `null` if one comes next; true when it did.
    public mutating func skipNull() throws -> Bool {
        guard try peek() == .null else { return false }
        try expectLiteral("null")
        return true
    }

    /// Consumes and validates one value of any kind.
    public mutating func skipValue() throws {
        switch try peek() {
        case .object: try forEachMember { reader, _ in try reader.skipValue() }
        case .array: try forEachElement { reader in try reader.skipValue() }
        case .string: _ = try scanString()
        case .number: _ = try scanNumber()
        case .bool: try expectLiteral(base[offset] == UInt8(ascii: "t") ? "true" : "false")
        case .null: try expectLiteral("null")
        }
    }

    /// A shape error at the next value, for callers that find valid JSON of the wrong kind.
    public mutating func shapeError(_ message: String) -> JSONError {
        skipWhitespace()
        return JSONError(.shape, message, at: offset)
    }

    /// "a string", "an array"… for messages about the next value.
    public mutating func describeNext() throws -> String {
        switch try peek() {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }

    // MARK: - Scanning

    @inline(__always)
    private mutating func skipWhitespace() {
        while offset < end {
            let byte = base[offset]
            // Space, tab, line feed, carriage return: the only whitespace JSON allows.
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            offset += 1
        }
    }

    private mutating func open(_ bracket: UInt8, _ name: String) throws {
        skipWhitespace()
        guard offset < end else { throw unexpectedEnd(name) }
        guard base[offset] == bracket else {
            let wanted = bracket == UInt8(ascii: "[") ? "an array" : "an object"
            throw shapeError("expected \(wanted), found \(try describeNext())")
        }
        guard depth < maximumDepth else { throw JSONError(.syntax, "nested deeper than \(maximumDepth) levels", at: offset) }
        depth += 1
        offset += 1
    }

    /// Scans a string starting at its opening quote, validating escapes and UTF-8.
    private mutating func scanString() throws -> JSONString {
        let quote = offset
        var i = offset + 1
        var escaped = false
        while true {
            // Most characters are three-byte sequences of CJK text or printable ASCII. This loop
            // takes those a character at a time with one 4-byte load each and leaves everything
            // else (quotes, escapes, other sequences, the last bytes) to the checks below: it is
            // most of the parser's time. A three-byte sequence qualifies when its lead is E1–EC
            // or EE–EF, whose continuation bytes need no range check beyond 80–BF (RFC 3629).
            while end - i >= 4 {
                let word = UInt32(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self))
                let lead = UInt8(truncatingIfNeeded: word)
                if word & 0x00C0_C0F0 == 0x0080_80E0 {
                    guard lead != 0xE0, lead != 0xED else { break }
                    i += 3
                } else if lead >= 0x20, lead < 0x80, lead != UInt8(ascii: "\""), lead != UInt8(ascii: "\\") {
                    i += 1
                } else {
                    break
                }
            }
            guard i < end else { throw JSONError(.syntax, "unterminated string", at: quote) }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                i = try scanEscape(at: i)
            } else if byte < 0x20 {
                throw JSONError(.syntax, "control character U+\(hex(byte, 4)) in a string must be escaped", at: i)
            } else if byte < 0x80 {
                i += 1
            } else {
                i = try scanUTF8(at: i)
            }
        }
        offset = i + 1
        return JSONString(raw: UnsafeBufferPointer(start: base + quote + 1, count: i - quote - 1), hasEscapes: escaped)
    }

    /// Validates the escape at `i` (a backslash); returns the index after it.
    private func scanEscape(at i: Int) throws -> Int {
        guard i + 1 < end else { throw JSONError(.syntax, "unterminated string", at: i) }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            for k in 2..<6 {
                guard i + k < end else { throw JSONError(.syntax, "unterminated string", at: i) }
                guard JSONString.hexValue(base[i + k]) != nil else {
                    throw JSONError(.syntax, "invalid \\u escape: expected 4 hexadecimal digits", at: i)
                }
            }
            return i + 6
        default:
            throw JSONError(.syntax, "invalid escape '\\\(printable(base[i + 1]))'", at: i)
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF); returns the index after it.
    @inline(__always)
    private func scanUTF8(at i: Int) throws -> Int {
        let lead = base[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw JSONError(.syntax, "invalid UTF-8 byte 0x\(hex(lead, 2))", at: i)
        }
        guard i + length <= end else { throw JSONError(.syntax, "truncated UTF-8 sequence", at: i) }
        let second = base[i + 1]
        guard second >= low && second <= high else { throw JSONError(.syntax, "invalid UTF-8 sequence", at: i) }
        for k in 2..<length where base[i + k] & 0xC0 != 0x80 {
            throw JSONError(.syntax, "invalid UTF-8 sequence", at: i)
        }
        return i + length
    }

    /// Scans a number per the JSON grammar; true when it has no fraction or exponent.
    private mutating func scanNumber() throws -> Bool {
        var i = offset
        if base[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, isDigit(base[i]) else {
            throw i < end ? JSONError(.syntax, "expected a digit", at: i) : JSONError(.syntax, "unexpected end of input: expected a digit", at: i)
        }
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if i < end, isDigit(base[i]) { throw JSONError(.syntax, "numbers cannot have leading zeros", at: i - 1) }
        } else {
            while i < end, isDigit(base[i]) { i += 1 }
        }
        var integral = true
        if i < end, base[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard i < end, isDigit(base[i]) else { throw JSONError(.syntax, "expected a digit after the decimal point", at: i) }
            while i < end, isDigit(base[i]) { i += 1 }
        }
        if i < end, base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E") {
            integral = false
            i += 1
            if i < end, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") { i += 1 }
            guard i < end, isDigit(base[i]) else { throw JSONError(.syntax, "expected a digit in the exponent", at: i) }
            while i < end, isDigit(base[i]) { i += 1 }
        }
        offset = i
        return integral
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for k in 0..<count {
            guard offset + k < end else { throw JSONError(.syntax, "unexpected end of input in '\(literal)'", at: offset + k) }
            guard base[offset + k] == bytes[k] else { throw JSONError(.syntax, "invalid literal: expected '\(literal)'", at: offset) }
        }
        offset += count
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func unexpectedEnd(_ wanted: String) -> JSONError {
        JSONError(.syntax, "unexpected end of input: expected \(wanted)", at: end)
    }

    private func unexpected(_ wanted: String) -> JSONError {
        JSONError(.syntax, "unexpected \(describeByte(at: offset)): expected \(wanted)", at: offset)
    }

    /// The character at `i` for a message: the whole UTF-8 sequence when it is one.
    private func describeByte(at i: Int) -> String {
        let byte = base[i]
        if byte < 0x80 { return "'\(printable(byte))'" }
        if let next = try? scanUTF8(at: i) {
            return "'\(String(decoding: UnsafeBufferPointer(start: base + i, count: next - i), as: UTF8.self))'"
        }
        return "byte 0x\(hex(byte, 2))"
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(hex(byte, 2))}"
    }

    private func hex(_ byte: UInt8, _ width: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Parses validated integer digits, nil on overflow.
    public static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        var value: Int64 = 0
        var negative = false
        for byte in digits {
            if byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(byte - 0x30))
            if o1 || o2 { return nil }
            value = s // accumulated negatively so Int64.min fits
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }
}

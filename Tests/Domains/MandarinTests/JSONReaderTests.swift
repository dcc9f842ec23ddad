import JSONReading
import Testing

@testable import Mandarin

/// Reads any JSON value into a plain Swift value, to check the reader against expectations.
private indirect enum Value: Equatable {
    case object([(String, Value)])
    case array([Value])
    case string(String)
    case integer(Int64)
    case number, bool, null

    static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.number, .number), (.bool, .bool), (.null, .null): return true
        default: return false
        }
    }

    static func read(_ reader: inout JSONReader) throws -> Value {
        switch try reader.peek() {
        case .object:
            var members: [(String, Value)] = []
            try reader.forEachMember { reader, key in members.append((key.string, try read(&reader))) }
            return .object(members)
        case .array:
            var items: [Value] = []
            try reader.forEachElement { reader in items.append(try read(&reader)) }
            return .array(items)
        case .string: return .string(try reader.readString().string)
        case .number:
            // A failed readInteger has moved past the number, so probe on a copy.
            var probe = reader
            if let value = try? probe.readInteger() {
                reader = probe
                return .integer(value)
            }
            try reader.skipValue()
            return .number
        case .bool, .null:
            let kind = try reader.peek()
            try reader.skipValue()
            return kind == .null ? .null : .bool
        }
    }

    static func parse(_ text: String) throws -> Value {
        try Fixture.withBytes(text) { bytes in
            var reader = JSONReader(bytes)
            let value = try read(&reader)
            try reader.finish()
            return value
        }
    }
}

@Suite("JSONReader: valid input")
struct JSONReaderValidTests {
    @Test func readsNestedValuesOfEveryKind() throws {
        let value = try Value.parse(#" { "a" : [1, -2, 0, {"b": null}, [], {}], "c": true, "d": false, "e": "x" } "#)
        #expect(
            value
                == .object([
                    ("a", .array([.integer(1), .integer(-2), .integer(0), .object([("b", .null)]), .array([]), .object([])])),
                    ("c", .bool), ("d", .bool), ("e", .string("x")),
                ]))
    }

    @Test func acceptsEveryNumberForm() throws {
        #expect(try Value.parse("[1.5, -0.25, 1e3, 2E-4, 6.02e+23, -0]") == .array([.number, .number, .number, .number, .number, .integer(0)]))
    }

    @Test func readsWholeNumbersToTheLimitsOf64Bits() throws {
        #expect(
            try Value.parse("[9223372036854775807, -9223372036854775808]")
                == .array([.integer(Int64.max), .integer(Int64.min)]))
    }

    @Test func aNumberThatIsNotWholeIsAShapeErrorForReadInteger() throws {
        for text in ["6.5", "1e2", "9223372036854775808"] {
            let found = Fixture.jsonError(Array(text.utf8)) { _ = try $0.readInteger() }
            #expect(found?.0.kind == .shape, "\(text)")
            #expect(found?.0.offset == 0)
        }
    }

    @Test func decodesEveryEscape() throws {
        let value = try Value.parse(#"["\"\\\/\b\f\n\r\t", "caf\u00e9 \u884c", "\ud83d\ude00", "\ud800x", "\udc00"]"#)
        #expect(
            value
                == .array([
                    .string("\"\\/\u{08}\u{0C}\n\r\t"), .string("café 行"), .string("😀"), .string("\u{FFFD}x"), .string("\u{FFFD}"),
                ]))
    }

    @Test func stringsWithoutEscapesAreSlicesOfTheInput() throws {
        try Fixture.withBytes(#"["行人", "a\nb"]"#) { bytes in
            var reader = JSONReader(bytes)
            var strings: [JSONString] = []
            try reader.forEachElement { strings.append(try $0.readString()) }
            #expect(strings[0].hasEscapes == false)
            #expect(strings[0].raw.baseAddress == bytes.baseAddress! + 2)
            #expect(strings[1].hasEscapes)
            #expect(strings[1].string == "a\nb")
        }
    }

    @Test func keysAreComparedDecoded() throws {
        try Fixture.withBytes(#"{"t\u0069tle": 1}"#) { bytes in
            var reader = JSONReader(bytes)
            var matched = false
            try reader.forEachMember { reader, key in
                matched = key.equals("title")
                try reader.skipValue()
            }
            #expect(matched)
        }
    }

    @Test func acceptsAllFourWhitespaceCharacters() throws {
        #expect(try Value.parse(" \t\r\n[ \t\r\n1 \t\r\n] \t\r\n") == .array([.integer(1)]))
    }

    @Test func acceptsEveryValidUTF8Length() throws {
        #expect(try Value.parse("[\"aé行😀\"]") == .array([.string("aé行😀")]))
    }
}

@Suite("JSONReader: malformed input, with its position")
struct JSONReaderMalformedTests {
    struct Case: CustomStringConvertible, Sendable {
        let input: [UInt8]
        let message: String
        let line: Int
        let column: Int
        init(_ text: String, _ message: String, _ line: Int, _ column: Int) {
            self.init(bytes: Array(text.utf8), message, line, column)
        }
        init(bytes: [UInt8], _ message: String, _ line: Int, _ column: Int) {
            input = bytes
            self.message = message
            self.line = line
            self.column = column
        }
        var description: String { String(decoding: input, as: UTF8.self).debugDescription }
    }

    static let cases: [Case] = [
        Case("", "unexpected end of input: expected a value", 1, 1),
        Case("   ", "unexpected end of input: expected a value", 1, 4),
        Case("[", "unexpected end of input: expected a value", 1, 2),
        Case("[1", "unexpected end of input: expected ',' or ']'", 1, 3),
        Case("[1,]", "unexpected ']': expected a value", 1, 4),
        Case("[1 2]", "unexpected '2': expected ',' or ']' after an array element", 1, 4),
        Case("{\"a\" 1}", "unexpected '1': expected ':' after the member name", 1, 6),
        Case("{\"a\":1,}", "unexpected '}': expected a member name in double quotes", 1, 8),
        Case("{a:1}", "unexpected 'a': expected a member name in double quotes", 1, 2),
        Case("{\"a\":1", "unexpected end of input: expected ',' or '}'", 1, 7),
        Case("{\"a\":1]", "unexpected ']': expected ',' or '}' after an object member", 1, 7),
        Case("[\"abc", "unterminated string", 1, 2),
        Case("[\"a\\x\"]", "invalid escape '\\x'", 1, 4),
        Case("[\"\\u12G4\"]", "invalid \\u escape: expected 4 hexadecimal digits", 1, 3),
        Case("[\"a\nb\"]", "control character U+000A in a string must be escaped", 1, 4),
        Case("[\"a\tb\"]", "control character U+0009 in a string must be escaped", 1, 4),
        Case("[01]", "numbers cannot have leading zeros", 1, 2),
        Case("[1.]", "expected a digit after the decimal point", 1, 4),
        Case("[1e]", "expected a digit in the exponent", 1, 4),
        Case("[-]", "expected a digit", 1, 3),
        Case("[+1]", "unexpected '+': expected a value", 1, 2),
        Case("[.5]", "unexpected '.': expected a value", 1, 2),
        Case("[tru]", "invalid literal: expected 'true'", 1, 2),
        Case("[nul", "unexpected end of input in 'null'", 1, 5),
        Case("[NaN]", "unexpected 'N': expected a value", 1, 2),
        Case("['a']", "unexpected ''': expected a value", 1, 2),
        Case("[1] x", "unexpected 'x': expected the end of the input after the top-level value", 1, 5),
        Case("[1][2]", "unexpected '[': expected the end of the input after the top-level value", 1, 4),
        Case("[\n  1,\n  2,\n  x\n]", "unexpected 'x': expected a value", 4, 3),
        Case("[\r\n  1,\r\n  ?\r\n]", "unexpected '?': expected a value", 3, 3),
        // Columns count characters, not bytes: 行 is three bytes but one column.
        Case("[\"行\", 行]", "unexpected '行': expected a value", 1, 7),
        Case(bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D], "invalid UTF-8 byte 0xFF", 1, 3),
        Case(bytes: [0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D], "invalid UTF-8 byte 0xC0", 1, 3), // overlong NUL
        Case(bytes: [0x5B, 0x22, 0xE0, 0x80, 0x80, 0x22, 0x5D], "invalid UTF-8 sequence", 1, 3), // overlong
        Case(bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "invalid UTF-8 sequence", 1, 3), // surrogate
        Case(bytes: [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], "invalid UTF-8 sequence", 1, 3), // > U+10FFFF
        Case(bytes: [0x5B, 0x22, 0xE8, 0xA1, 0x22, 0x5D], "invalid UTF-8 sequence", 1, 3), // cut short
        Case(bytes: [0x5B, 0x22, 0xE8, 0xA1], "truncated UTF-8 sequence", 1, 3),
        Case(bytes: [0x5B, 0x80, 0x5D], "unexpected byte 0x80: expected a value", 1, 2),
    ]

    @Test(arguments: cases)
    func reportsTheProblemAndWhereItIs(_ c: Case) throws {
        let found = Fixture.jsonError(c.input) { reader in
            try reader.skipValue()
            try reader.finish()
        }
        let (error, position) = try #require(found, "no error for \(c)")
        #expect(error.kind == .syntax)
        #expect(error.message == c.message)
        #expect(position.line == c.line && position.column == c.column, "\(position)")
    }

    @Test func refusesNestingBeyondTheLimit() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let (error, position) = try #require(Fixture.jsonError(Array(deep.utf8)) { try $0.skipValue() })
        #expect(error.message == "nested deeper than 512 levels")
        #expect(position.column == 513)
    }

    @Test func aWrongKindOfValueIsAShapeErrorAtThatValue() throws {
        let (error, position) = try #require(
            Fixture.jsonError(Array("\n  {\"a\": 1}".utf8)) { reader in
                try reader.forEachElement { try $0.skipValue() }
            })
        #expect(error.kind == .shape)
        #expect(error.message == "expected an array, found an object")
        #expect(position == SourcePosition(line: 2, column: 3, offset: 3))
    }
}

@Suite("SourcePosition")
struct SourcePositionTests {
    @Test func countsLinesAndCharacters() {
        Fixture.withBytes("ab\n行行x\n") { bytes in
            #expect(SourcePosition(offset: 0, in: bytes) == SourcePosition(line: 1, column: 1, offset: 0))
            #expect(SourcePosition(offset: 3, in: bytes) == SourcePosition(line: 2, column: 1, offset: 3))
            #expect(SourcePosition(offset: 9, in: bytes) == SourcePosition(line: 2, column: 3, offset: 9))
            #expect(SourcePosition(offset: 11, in: bytes) == SourcePosition(line: 3, column: 1, offset: 11))
        }
    }

    @Test func describesItselfForMessages() {
        #expect(SourcePosition(line: 3, column: 7, offset: 120).description == "line 3, column 7 (byte 120)")
    }
}

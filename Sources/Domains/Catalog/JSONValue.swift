import JSONReading

/// Untyped JSON, for checking category files field by field before they are decoded.
enum JSONValue: CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a whole document; syntax errors carry their line and column.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do {
                let value = try JSONValue(reading: &reader)
                try reader.finish()
                return value
            } catch let error as JSONError {
                throw JSONSyntaxError(message: error.message, position: SourcePosition(offset: error.offset, in: buffer))
            }
        }
    }

    init(reading reader: inout JSONReader) throws {
        switch try reader.peek() {
        case .object:
            var members: [String: JSONValue] = [:]
            try reader.forEachMember { reader, key in members[key.string] = try JSONValue(reading: &reader) }
            self = .object(members)
        case .array:
            var elements: [JSONValue] = []
            try reader.forEachElement { reader in elements.append(try JSONValue(reading: &reader)) }
            self = .array(elements)
        case .string: self = .string(try reader.readString().string)
        case .number:
            let number = try reader.readNumber()
            self = number.integer.flatMap { Int(exactly: $0) }.map(JSONValue.integer) ?? .number(number.value)
        case .bool: self = .bool(try reader.readBool())
        case .null:
            _ = try reader.skipNull()
            self = .null
        }
    }

    var string: String? { if case .string(let v) = self { v } else { nil } }
    var integer: Int? { if case .integer(let v) = self { v } else { nil } }
    var array: [JSONValue]? { if case .array(let v) = self { v } else { nil } }
    var object: [String: JSONValue]? { if case .object(let v) = self { v } else { nil } }
    /// An array whose elements are all strings.
    var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    subscript(key: String) -> JSONValue? { object?[key] }

    /// What the value is, as a message names it: "expected a number, found a string".
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let v): "\(v)"
        case .integer(let v): "\(v)"
        case .number(let v): "\(v)"
        case .string(let v): v
        case .array(let v): "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .object: "{…}"
        }
    }
}

struct JSONSyntaxError: Error, CustomStringConvertible {
    let message: String
    let position: SourcePosition
    var description: String { "\(message) at \(position)" }
}

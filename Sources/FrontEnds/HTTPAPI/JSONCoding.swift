import Foundation

/// One JSON style for every response: keys sorted, so the same data always gives the same
/// bytes (and the same ETag) in every process, and slashes left alone.
enum JSONCoding {
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}

enum MediaType {
    static let json = "application/json; charset=utf-8"
    static let wav = "audio/wav"
    static let ogg = "audio/ogg"
}

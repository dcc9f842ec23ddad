import Foundation

/// One JSON style for every response: keys sorted, so the same data always gives the same
/// bytes (and the same ETag) in every process, and slashes left alone.
public enum JSONCoding {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}

public enum MediaType {
    public static let json = "application/json; charset=utf-8"
    public static let wav = "audio/wav"
    public static let ogg = "audio/ogg"
}

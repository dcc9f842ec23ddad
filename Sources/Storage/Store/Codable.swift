#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Document {
    /// Encodes a value as the document's JSON body.
    public init<T: Encodable>(id: String, encoding value: T) throws {
        let data = try JSONEncoder.store.encode(value)
        self.init(id: id, json: String(decoding: data, as: UTF8.self))
    }

    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }
}

extension JSONEncoder {
    /// Sorted keys keep stored bodies byte-stable, so identical content hashes identically.
    static var store: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

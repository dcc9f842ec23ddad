import JSONReading

/// Walks a dict-revised.json document and hands each definition, reading and entry to a sink.
///
/// It accepts what the published files vary in: list fields as an array or a single string,
/// synonyms as one comma-separated string or an array, stroke counts as numbers or digit
/// strings, null for any optional field, and keys it does not know (`id`, `translation`,
/// `audio_id`…), which are validated and skipped. Anything else is a shape error at the
/// offending value.
struct DictionaryReader {
    private(set) var entries: Int64 = 0
    private(set) var heteronyms: Int64 = 0
    private(set) var definitions: Int64 = 0
    private var definition = DefinitionRecord()

    /// Reads the whole document. The reader is a local, not a property, so the closures below
    /// can update the counters in `self` while it is being advanced.
    mutating func read<Sink: DictionarySink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink) throws {
        var reader = JSONReader(bytes)
        guard try reader.peek() == .array else {
            throw reader.shapeError("the file must be a JSON array of entries, found \(try reader.describeNext())")
        }
        try reader.forEachElement { reader in
            try readEntry(&reader, into: &sink)
        }
        try reader.finish()
    }

    private mutating func readEntry<Sink: DictionarySink>(_ reader: inout JSONReader, into sink: inout Sink) throws {
        guard try reader.peek() == .object else {
            throw reader.shapeError("each entry must be an object, found \(try reader.describeNext())")
        }
        entries += 1
        var entry = EntryRecord(id: entries, offset: reader.offset)
        try reader.forEachMember { reader, key in
            if key.equals("title") {
                _ = try reader.peek()
                let start = reader.offset
                guard let title = try Self.optionalString(&reader, "title"), !title.isEmpty else {
                    throw JSONError(.shape, "'title' must be a non-empty string", at: start)
                }
                entry.title = title
            } else if key.equals("heteronyms") {
                try Self.readList(&reader, "heteronyms") { reader in
                    try readHeteronym(&reader, entryID: entry.id, into: &sink)
                }
            } else if key.equals("radical") {
                entry.radical = try Self.optionalString(&reader, "radical")
            } else if key.equals("stroke_count") {
                entry.strokeCount = try Self.optionalCount(&reader, "stroke_count")
            } else if key.equals("non_radical_stroke_count") {
                entry.nonRadicalStrokeCount = try Self.optionalCount(&reader, "non_radical_stroke_count")
            } else {
                try reader.skipValue()
            }
        }
        guard entry.title != nil else { throw JSONError(.shape, "entry \(entry.id) has no 'title'", at: entry.offset) }
        try sink.entry(entry)
    }

    private mutating func readHeteronym<Sink: DictionarySink>(_ reader: inout JSONReader, entryID: Int64, into sink: inout Sink) throws {
        guard try reader.peek() == .object else {
            throw reader.shapeError("each item of 'heteronyms' must be an object, found \(try reader.describeNext())")
        }
        heteronyms += 1
        var heteronym = HeteronymRecord(id: heteronyms, entryID: entryID)
        try reader.forEachMember { reader, key in
            if key.equals("definitions") {
                try Self.readList(&reader, "definitions") { reader in
                    try readDefinition(&reader, heteronymID: heteronym.id, into: &sink)
                }
            } else if key.equals("pinyin") {
                heteronym.pinyin = try Self.optionalString(&reader, "pinyin")
            } else if key.equals("bopomofo") {
                heteronym.bopomofo = try Self.optionalString(&reader, "bopomofo")
            } else {
                try reader.skipValue()
            }
        }
        try sink.heteronym(heteronym)
    }

    private mutating func readDefinition<Sink: DictionarySink>(_ reader: inout JSONReader, heteronymID: Int64, into sink: inout Sink) throws {
        guard try reader.peek() == .object else {
            throw reader.shapeError("each item of 'definitions' must be an object, found \(try reader.describeNext())")
        }
        definitions += 1
        definition.reset(id: definitions, heteronymID: heteronymID)
        try reader.forEachMember { reader, key in
            if key.equals("def") {
                definition.text = try Self.optionalString(&reader, "def")
            } else if key.equals("type") {
                definition.type = try Self.optionalString(&reader, "type")
            } else if key.equals("example") {
                try Self.readStrings(&reader, "example", into: &definition.examples, splitting: false)
            } else if key.equals("quote") {
                try Self.readStrings(&reader, "quote", into: &definition.quotes, splitting: false)
            } else if key.equals("link") {
                try Self.readStrings(&reader, "link", into: &definition.links, splitting: false)
            } else if key.equals("synonyms") {
                try Self.readStrings(&reader, "synonyms", into: &definition.synonyms, splitting: true)
            } else if key.equals("antonyms") {
                try Self.readStrings(&reader, "antonyms", into: &definition.antonyms, splitting: true)
            } else {
                try reader.skipValue()
            }
        }
        definition.examples.close()
        definition.quotes.close()
        definition.links.close()
        definition.synonyms.close()
        definition.antonyms.close()
        try sink.definition(definition)
    }

    // The helpers below look at the next value once and branch on its kind, rather than asking
    // "null?" and then "string?": a third of a million values pass through them.

    /// An array of objects, or null for none.
    private static func readList(_ reader: inout JSONReader, _ name: String, _ item: (inout JSONReader) throws -> Void) throws {
        switch try reader.peek() {
        case .array: try reader.forEachElement(item)
        case .null: _ = try reader.skipNull()
        default: throw reader.shapeError("'\(name)' must be an array, found \(try reader.describeNext())")
        }
    }

    private static func optionalString(_ reader: inout JSONReader, _ name: String) throws -> JSONString? {
        switch try reader.peek() {
        case .string: return try reader.readString()
        case .null:
            _ = try reader.skipNull()
            return nil
        default: throw reader.shapeError("'\(name)' must be a string, found \(try reader.describeNext())")
        }
    }

    /// A stroke count: a whole number, or a string of digits as some conversions write it.
    private static func optionalCount(_ reader: inout JSONReader, _ name: String) throws -> Int64? {
        let kind = try reader.peek()
        let start = reader.offset
        switch kind {
        case .null:
            _ = try reader.skipNull()
            return nil
        case .number:
            try reader.skipValue()
            let text = UnsafeBufferPointer(rebasing: reader.input[start..<reader.offset])
            let integral = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
            if integral, let value = JSONReader.integer(text) { return value }
            throw JSONError(.shape, "'\(name)' must be a whole number, found \(String(decoding: text, as: UTF8.self))", at: start)
        case .string:
            let text = try reader.readString().string
            if let value = Int64(text.trimmingWhiteSpace()) { return value }
            throw JSONError(.shape, "'\(name)' must be a whole number, found \"\(text)\"", at: start)
        default:
            throw reader.shapeError("'\(name)' must be a whole number, found \(try reader.describeNext())")
        }
    }

    /// A list of strings: an array (nulls skipped), a single string, or null.
    private static func readStrings(_ reader: inout JSONReader, _ name: String, into list: inout JSONList, splitting: Bool) throws {
        switch try reader.peek() {
        case .null:
            _ = try reader.skipNull()
        case .string:
            let value = try reader.readString()
            if splitting { list.appendSplitting(value) } else if !value.isEmpty { list.append(value.raw) }
        case .array:
            try reader.forEachElement { reader in
                if try reader.skipNull() { return }
                guard try reader.peek() == .string else {
                    throw reader.shapeError("items of '\(name)' must be strings, found \(try reader.describeNext())")
                }
                let value = try reader.readString()
                if splitting { list.appendSplitting(value) } else if !value.isEmpty { list.append(value.raw) }
            }
        default:
            throw reader.shapeError("'\(name)' must be a string or an array of strings, found \(try reader.describeNext())")
        }
    }
}

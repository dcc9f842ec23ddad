import JSONReading

/// The fields of one dictionary entry as read, still slices of the input.
struct EntryRecord {
    var id: Int64 = 0
    var title: JSONString?
    var radical: JSONString?
    var strokeCount: Int64?
    var nonRadicalStrokeCount: Int64?
    /// Where the entry starts, for errors about it as a whole.
    var offset = 0
}

/// One reading (heteronym) of an entry.
struct HeteronymRecord {
    var id: Int64 = 0
    var entryID: Int64 = 0
    var pinyin: JSONString?
    var bopomofo: JSONString?
}

/// One definition. The list fields are kept as ready-to-store JSON arrays.
struct DefinitionRecord {
    var id: Int64 = 0
    var heteronymID: Int64 = 0
    var text: JSONString?
    var type: JSONString?
    var examples = JSONList()
    var quotes = JSONList()
    var links = JSONList()
    var synonyms = JSONList()
    var antonyms = JSONList()

    mutating func reset(id: Int64, heteronymID: Int64) {
        self.id = id
        self.heteronymID = heteronymID
        text = nil
        type = nil
        examples.reset()
        quotes.reset()
        links.reset()
        synonyms.reset()
        antonyms.reset()
    }
}

/// Receives records in document order: each object's children before the object itself,
/// because the source sorts keys alphabetically ("heteronyms" comes before "title", and
/// "definitions" before "pinyin"). Ids are assigned when an object opens, so children already
/// know their parent's id.
protocol DictionarySink {
    mutating func definition(_ record: DefinitionRecord) throws
    mutating func heteronym(_ record: HeteronymRecord) throws
    mutating func entry(_ record: EntryRecord) throws
}

/// A JSON array of strings built byte by byte, so lists are stored as JSON without ever
/// becoming Swift arrays of Strings. Empty means absent.
struct JSONList {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0
    private var closed = false

    init() { bytes.reserveCapacity(1024) }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        closed = false
    }

    /// Appends one string. The raw slice is valid JSON string content, escapes included, so it
    /// is copied as is.
    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: raw)
        bytes.append(UInt8(ascii: "\""))
        count += 1
    }

    /// Appends each item of a list written as one string ("頻頻,屢屢,屢次"), split at commas,
    /// enumeration commas, semicolons and spaces, as the dictionary's synonym fields are.
    mutating func appendSplitting(_ string: JSONString) {
        guard string.hasEscapes else { return split(string.raw, escaping: false) }
        // An escape could hide a separator (\u3000), so split the decoded text and escape again.
        var decoded: [UInt8] = []
        string.unescape(into: &decoded)
        decoded.withUnsafeBufferPointer { split($0, escaping: true) }
    }

    private mutating func split(_ text: UnsafeBufferPointer<UInt8>, escaping: Bool) {
        var start = 0
        var i = 0
        while i < text.count {
            let width = Self.separatorWidth(text, at: i)
            if width > 0 {
                if i > start { append(UnsafeBufferPointer(rebasing: text[start..<i]), escaping: escaping) }
                i += width
                start = i
            } else {
                i += 1
            }
        }
        if text.count > start { append(UnsafeBufferPointer(rebasing: text[start..<text.count]), escaping: escaping) }
    }

    /// Appends decoded text, escaping what JSON requires.
    private mutating func append(_ text: UnsafeBufferPointer<UInt8>, escaping: Bool) {
        guard escaping else { return append(text) }
        var escaped: [UInt8] = []
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: escaped += Array("\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".utf8)
            default: escaped.append(byte)
            }
        }
        escaped.withUnsafeBufferPointer { append($0) }
    }

    /// Adds the closing bracket; call once, before storing.
    mutating func close() {
        if count > 0 && !closed {
            bytes.append(UInt8(ascii: "]"))
            closed = true
        }
    }

    /// Byte length of the separator at `i`, or 0.
    @inline(__always)
    private static func separatorWidth(_ raw: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        switch raw[i] {
        case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"): return 1
        case 0xE3 where i + 2 < raw.count && raw[i + 1] == 0x80 && (raw[i + 2] == 0x80 || raw[i + 2] == 0x81):
            return 3 // U+3000 ideographic space, U+3001 、
        case 0xEF where i + 2 < raw.count && raw[i + 1] == 0xBC && (raw[i + 2] == 0x8C || raw[i + 2] == 0x9B):
            return 3 // U+FF0C ，  U+FF1B ；
        case 0xEF where i + 2 < raw.count && raw[i + 1] == 0xB9 && raw[i + 2] == 0x91:
            return 3 // U+FE51 ﹑
        default: return 0
        }
    }
}

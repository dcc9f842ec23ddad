/// A note type ("model" in the legacy schema): named fields and one card template per card kind.
public struct AnkiNoteType: Sendable, Hashable {
    public struct Template: Sendable, Hashable {
        public var name: String
        /// Question-side template, e.g. `{{Word}}`.
        public var front: String
        /// Answer-side template, e.g. `{{FrontSide}}<hr id=answer>{{Meaning}}`.
        public var back: String

        public init(name: String, front: String, back: String) {
            self.name = name
            self.front = front
            self.back = back
        }
    }

    /// Anki's own default card style, so a note type without CSS looks like a stock one.
    public static let defaultCSS = """
        .card {
            font-family: arial;
            font-size: 20px;
            text-align: center;
            color: black;
            background-color: white;
        }
        """

    /// Keep this fixed for a product note type: Anki matches the note type of a re-import by id.
    public var id: Int64
    public var name: String
    public var fields: [String]
    public var templates: [Template]
    public var css: String
    /// Index of the field the browser sorts by (`sortf`).
    public var sortFieldIndex: Int

    public init(
        id: Int64, name: String, fields: [String], templates: [Template],
        css: String = AnkiNoteType.defaultCSS, sortFieldIndex: Int = 0
    ) {
        self.id = id
        self.name = name
        self.fields = fields
        self.templates = templates
        self.css = css
        self.sortFieldIndex = sortFieldIndex
    }
}

public struct AnkiNote: Sendable, Hashable {
    /// Anki's identity for the note across imports; use `AnkiGUID.stable(for:)`.
    public var guid: String
    /// HTML, one per note-type field; `[sound:NAME]` plays the media entry NAME.
    public var fields: [String]
    /// Anki tags cannot hold whitespace: inner whitespace becomes "_" when written.
    public var tags: [String]
    /// When the note's content last changed (epoch seconds); nil means the package's `now`.
    /// Anki's default re-import updates a note only if this is newer than its copy, so passing
    /// the real change time makes unchanged notes come out as "duplicate" instead of "updated".
    public var modified: Int64?

    public init(guid: String, fields: [String], tags: [String] = [], modified: Int64? = nil) {
        self.guid = guid
        self.fields = fields
        self.tags = tags
        self.modified = modified
    }
}

public struct AnkiMedia: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        case bytes([UInt8])
        /// Streamed into the package when it is written, never loaded whole.
        case file(path: String)
    }

    /// The flat file name notes refer to, e.g. "catalog-animals-cat-british.ogg".
    public var name: String
    public var source: Source

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.source = .bytes(bytes)
    }

    public init(name: String, path: String) {
        self.name = name
        self.source = .file(path: path)
    }
}

public struct AnkiPackage: Sendable, Hashable {
    /// Must not be 1, which is every collection's Default deck.
    public var deckID: Int64
    /// "::" separates parent and child decks.
    public var deckName: String
    public var deckDescription: String
    public var noteType: AnkiNoteType
    public var notes: [AnkiNote]
    /// Listed once per name in the package, however many notes refer to it.
    public var media: [AnkiMedia]

    public init(
        deckID: Int64, deckName: String, deckDescription: String = "", noteType: AnkiNoteType,
        notes: [AnkiNote], media: [AnkiMedia] = []
    ) {
        self.deckID = deckID
        self.deckName = deckName
        self.deckDescription = deckDescription
        self.noteType = noteType
        self.notes = notes
        self.media = media
    }
}

public enum AnkiExportError: Error, Equatable, CustomStringConvertible {
    case invalidDeck(String)
    case invalidNoteType(String)
    case invalidNote(guid: String, reason: String)
    case duplicateGUID(String)
    case invalidMediaName(name: String, reason: String)
    case conflictingMedia(name: String)
    case missingMedia(name: String, guid: String)
    case noCards(guid: String)
    case tooLargeForZip(String)
    case io(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidDeck(let why): return "invalid deck: \(why)"
        case .invalidNoteType(let why): return "invalid note type: \(why)"
        case .invalidNote(let guid, let why): return "invalid note \(guid): \(why)"
        case .duplicateGUID(let guid): return "two notes share the guid \(guid)"
        case .invalidMediaName(let name, let why): return "invalid media name \"\(name)\": \(why)"
        case .conflictingMedia(let name): return "media \"\(name)\" is listed twice with different contents"
        case .missingMedia(let name, let guid): return "note \(guid) plays [sound:\(name)], which is not in the package's media"
        case .noCards(let guid): return "note \(guid) would have no cards: every template's front fields are empty"
        case .tooLargeForZip(let what): return "too large for a ZIP without ZIP64: \(what)"
        case .io(let op, let path, let code): return "\(op) failed for \(path): errno \(code)"
        }
    }
}

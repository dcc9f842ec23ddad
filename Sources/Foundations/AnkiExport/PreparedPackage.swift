import Foundation

/// A package checked against the rules Anki enforces or silently "fixes" on import, with fields
/// normalized the way Anki would store them. Checking up front turns what Anki would rename,
/// drop or refuse into an error here, before any file is touched.
struct PreparedPackage {
    struct Note {
        let guid: String
        let fields: [String]
        /// Space-wrapped, as the `notes.tags` column stores them: " a b ".
        let tagsColumn: String
        let tags: [String]
        let modified: Int64?
        /// Ordinals of the templates that give this note a card.
        let cardOrdinals: [Int]
    }

    let source: AnkiPackage
    let notes: [Note]
    /// Media in first-listed order, one entry per name.
    let media: [AnkiMedia]
    /// Per template, the field ordinals its front refers to (Anki's "any" requirement).
    let frontFieldOrdinals: [[Int]]

    init(_ package: AnkiPackage) throws {
        source = package
        try Self.checkDeck(package)
        let frontFieldOrdinals = try Self.checkNoteType(package.noteType)
        self.frontFieldOrdinals = frontFieldOrdinals
        let media = try Self.uniqueMedia(package.media)
        self.media = media
        let mediaNames = Set(media.map(\.name))

        var seen = Set<String>()
        var notes: [Note] = []
        notes.reserveCapacity(package.notes.count)
        for note in package.notes {
            guard !note.guid.isEmpty, !note.guid.contains(where: { $0.isWhitespace }) else {
                throw AnkiExportError.invalidNote(guid: note.guid, reason: "guid must be non-empty and without whitespace")
            }
            guard seen.insert(note.guid).inserted else { throw AnkiExportError.duplicateGUID(note.guid) }
            guard note.fields.count == package.noteType.fields.count else {
                throw AnkiExportError.invalidNote(
                    guid: note.guid,
                    reason: "\(note.fields.count) fields for a note type with \(package.noteType.fields.count)")
            }
            let fields = note.fields.map(AnkiText.normalizedField)
            for field in fields {
                for name in AnkiText.soundReferences(in: field) where !mediaNames.contains(name) {
                    throw AnkiExportError.missingMedia(name: name, guid: note.guid)
                }
            }
            let ordinals = frontFieldOrdinals.indices.filter { t in
                frontFieldOrdinals[t].contains { !AnkiText.fieldIsEmpty(fields[$0]) }
            }
            guard !ordinals.isEmpty else { throw AnkiExportError.noCards(guid: note.guid) }
            let tags = Self.canonicalTags(note.tags)
            notes.append(
                Note(
                    guid: note.guid, fields: fields,
                    tagsColumn: tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " ",
                    tags: tags, modified: note.modified, cardOrdinals: ordinals))
        }
        self.notes = notes
    }

    private static func checkDeck(_ package: AnkiPackage) throws {
        guard package.deckID > 1 else {
            throw AnkiExportError.invalidDeck("id \(package.deckID): 1 is the Default deck and ids must be positive")
        }
        let parts = package.deckName.components(separatedBy: "::")
        guard parts.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw AnkiExportError.invalidDeck("name \"\(package.deckName)\" has an empty part")
        }
        guard !package.deckName.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw AnkiExportError.invalidDeck("name \"\(package.deckName)\" contains control characters")
        }
    }

    /// Mirrors rslib `NoteField::fix_name`, `CardTemplate::fix_name`, `ensure_names_unique` and
    /// the template checks: Anki would rename such fields on import and break the templates.
    private static func checkNoteType(_ type: AnkiNoteType) throws -> [[Int]] {
        func fail(_ why: String) -> AnkiExportError { .invalidNoteType("\(type.name): \(why)") }
        guard type.id > 0 else { throw fail("id must be positive") }
        guard !type.name.isEmpty, !type.name.contains("\"") else { throw fail("name must be non-empty without quotes") }
        guard !type.fields.isEmpty else { throw fail("needs at least one field") }
        guard !type.templates.isEmpty else { throw fail("needs at least one template") }
        guard type.fields.indices.contains(type.sortFieldIndex) else { throw fail("sort field out of range") }

        var fieldNames = Set<String>()
        for name in type.fields {
            if name.isEmpty || name.contains(where: { ":{}\"".contains($0) }) {
                throw fail("field name \"\(name)\" is empty or contains one of : { } \"")
            }
            if let first = name.first, first.isWhitespace || "#/^".contains(first) {
                throw fail("field name \"\(name)\" starts with whitespace, #, / or ^")
            }
            if name.last!.isWhitespace { throw fail("field name \"\(name)\" ends with whitespace") }
            if !isNFC(name) { throw fail("field name \"\(name)\" is not NFC") }
            guard fieldNames.insert(name.lowercased()).inserted else { throw fail("field \"\(name)\" appears twice") }
        }
        var templateNames = Set<String>()
        var fronts = Set<String>()
        var ordinals: [[Int]] = []
        for template in type.templates {
            guard !template.name.isEmpty, !template.name.contains("\"") else {
                throw fail("template name \"\(template.name)\" is empty or has quotes")
            }
            guard templateNames.insert(template.name.lowercased()).inserted else {
                throw fail("template \"\(template.name)\" appears twice")
            }
            guard fronts.insert(template.front).inserted else { throw fail("two templates have the same front") }
            let front = TemplateFields.referencedNames(in: template.front)
            for name in front + TemplateFields.referencedNames(in: template.back) where !type.fields.contains(name) {
                throw fail("template \"\(template.name)\" refers to unknown field \"\(name)\"")
            }
            let frontOrdinals = front.compactMap { type.fields.firstIndex(of: $0) }
            guard !frontOrdinals.isEmpty else { throw fail("the front of template \"\(template.name)\" shows no field") }
            ordinals.append(frontOrdinals)
        }
        return ordinals
    }

    /// One entry per name. The same name twice is allowed when it means the same thing (same
    /// bytes or same path), since several notes may bring the same clip along.
    private static func uniqueMedia(_ media: [AnkiMedia]) throws -> [AnkiMedia] {
        var byName: [String: AnkiMedia.Source] = [:]
        var out: [AnkiMedia] = []
        for item in media {
            try checkMediaName(item.name)
            if let existing = byName[item.name] {
                guard existing == item.source else { throw AnkiExportError.conflictingMedia(name: item.name) }
                continue
            }
            byName[item.name] = item.source
            out.append(item)
        }
        return out
    }

    /// Names Anki's `normalize_filename` would change are refused: Anki would store the file
    /// under another name than the notes' `[sound:…]` references.
    static func checkMediaName(_ name: String) throws {
        func fail(_ why: String) -> AnkiExportError { .invalidMediaName(name: name, reason: why) }
        guard !name.isEmpty else { throw fail("empty") }
        if let bad = name.unicodeScalars.first(where: { "[]<>:\"/?*^\\|".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{A0}" })
        {
            throw fail("contains \"\(bad)\"")
        }
        guard name.utf8.count <= 120 else { throw fail("longer than 120 bytes") }
        guard isNFC(name) else { throw fail("not in NFC") }
        if name.hasSuffix(".") || name.hasSuffix(" ") { throw fail("ends with a dot or space") }
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0].uppercased()
        let devices = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })
        if devices.contains(stem) { throw fail("is a Windows device name") }
    }

    /// Scalar comparison: Swift's `==` on String treats NFD and NFC as equal.
    private static func isNFC(_ s: String) -> Bool {
        s.unicodeScalars.elementsEqual(s.precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    /// Anki tags are space-separated words, unique regardless of case.
    static func canonicalTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for tag in tags {
            let words = tag.split(whereSeparator: { $0.isWhitespace })
            guard !words.isEmpty else { continue }
            let joined = words.joined(separator: "_").precomposedStringWithCanonicalMapping
            if seen.insert(joined.lowercased()).inserted { out.append(joined) }
        }
        return out
    }
}

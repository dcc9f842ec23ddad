import Foundation
import SQLiteDB
import Testing

@testable import AnkiExport

@Suite struct PackageWriterTests {
    /// Writes the fixture package and returns the archive and the extracted collection.
    private func writeFixture(in dir: TemporaryDirectory) throws -> (ZipArchiveReader, Database) {
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        let path = dir.file("deck.apkg")
        try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("mao.wav")), to: path, now: Fixture.now)
        let archive = try ZipArchiveReader(bytes: try readBytes(path))
        let collection = try #require(archive["collection.anki2"])
        try writeBytes(collection, to: dir.file("extracted.anki2"))
        return (archive, try Database(path: dir.file("extracted.anki2"), mode: .readOnly))
    }

    private func json(_ text: String?) throws -> [String: Any] {
        let data = Data(try #require(text).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func archiveLayoutAndMediaListedOnce() throws {
        let dir = try TemporaryDirectory()
        let (archive, _) = try writeFixture(in: dir)
        #expect(archive.entries.map(\.name) == ["collection.anki2", "media", "0", "1"])
        let media = String(decoding: try #require(archive["media"]), as: UTF8.self)
        #expect(media == #"{"0":"catalog-animals-cat-british.wav","1":"catalog-animals-mao-mandarin.wav"}"#)
        #expect(archive["0"] == tinyWAV(frequency: 440))
        #expect(archive["1"] == tinyWAV(frequency: 660))
        // No temporary file is left beside the package.
        #expect(try dir.contents() == ["deck.apkg", "extracted.anki2", "mao.wav"])
    }

    @Test func collectionSchema() throws {
        let dir = try TemporaryDirectory()
        let (_, db) = try writeFixture(in: dir)
        #expect(try db.scalar("SELECT ver FROM col")?.intValue == 11)
        #expect(try db.scalar("SELECT count(*) FROM col")?.intValue == 1)
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) ?? "" }
        #expect(tables == ["cards", "col", "graves", "notes", "revlog"])
        let indexes = try db.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name") { $0.text(0) ?? "" }
        #expect(
            indexes == [
                "ix_cards_nid", "ix_cards_sched", "ix_cards_usn", "ix_notes_csum", "ix_notes_usn",
                "ix_revlog_cid", "ix_revlog_usn",
            ])
        // Every column NOT NULL, as Anki's schema 11 declares.
        for table in tables {
            let nullable = try db.query("SELECT count(*) FROM pragma_table_info('\(table)') WHERE \"notnull\" = 0 AND pk = 0") { $0.int(0) }
            #expect(nullable == [0], "\(table)")
        }
        #expect(try db.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    @Test func notesAndCards() throws {
        let dir = try TemporaryDirectory()
        let (_, db) = try writeFixture(in: dir)
        struct NoteRow {
            let id: Int64
            let guid: String
            let mid: Int64
            let mod: Int64
            let tags: String
            let flds: String
            let sfld: String
            let csum: Int64
        }
        let notes = try db.query("SELECT id, guid, mid, mod, tags, flds, sfld, csum FROM notes ORDER BY id") {
            NoteRow(
                id: $0.int(0), guid: $0.text(1) ?? "", mid: $0.int(2), mod: $0.int(3), tags: $0.text(4) ?? "",
                flds: $0.text(5) ?? "", sfld: $0.text(6) ?? "", csum: $0.int(7))
        }
        let expected = Fixture.notes()
        #expect(notes.map(\.guid) == expected.map(\.guid))
        #expect(notes.map(\.id) == [Fixture.now * 1000, Fixture.now * 1000 + 1, Fixture.now * 1000 + 2])
        #expect(notes.allSatisfy { $0.mid == Fixture.noteType.id && $0.mod == Fixture.now })
        #expect(notes[0].flds == "cat\u{1F}<b>a small</b> domesticated feline\u{1F}[sound:\(Fixture.catClip)]")
        #expect(notes[2].flds.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) == expected[2].fields)
        #expect(notes.map(\.tags) == [" animals catalog::animals ", " animals ", " mandarin HSK_1 "])
        #expect(notes.map(\.sfld) == ["cat", "kitten", "猫"])
        #expect(notes[0].csum == 2_644_024_973) // anki.utils.field_checksum("cat")
        #expect(notes.map(\.csum) == expected.map { AnkiText.fieldChecksum($0.fields[0]) })

        struct CardRow: Equatable { let id, nid, did, ord, type, queue, due: Int64 }
        let cards = try db.query("SELECT id, nid, did, ord, type, queue, due FROM cards ORDER BY id") {
            CardRow(id: $0.int(0), nid: $0.int(1), did: $0.int(2), ord: $0.int(3), type: $0.int(4), queue: $0.int(5), due: $0.int(6))
        }
        #expect(cards.map(\.nid) == notes.map(\.id))
        #expect(cards.allSatisfy { $0.did == Fixture.deckID && $0.ord == 0 && $0.type == 0 && $0.queue == 0 })
        #expect(cards.map(\.due) == [1, 2, 3])
        #expect(Set(cards.map(\.id)).count == 3)
        #expect(try db.scalar("SELECT count(*) FROM revlog")?.intValue == 0)
        #expect(try db.scalar("SELECT count(*) FROM graves")?.intValue == 0)
    }

    @Test func colJSON() throws {
        let dir = try TemporaryDirectory()
        let (_, db) = try writeFixture(in: dir)
        let decks = try json(try db.scalar("SELECT decks FROM col")?.textValue)
        #expect(Set(decks.keys) == ["1", String(Fixture.deckID)])
        #expect((decks["1"] as? [String: Any])?["name"] as? String == "Default")
        let ours = try #require(decks[String(Fixture.deckID)] as? [String: Any])
        #expect(ours["name"] as? String == Fixture.deckName)
        #expect(ours["dyn"] as? Int == 0 && ours["conf"] as? Int == 1)

        let models = try json(try db.scalar("SELECT models FROM col")?.textValue)
        let model = try #require(models[String(Fixture.noteType.id)] as? [String: Any])
        #expect(model["name"] as? String == "Vocab Word")
        #expect(model["type"] as? Int == 0 && model["sortf"] as? Int == 0)
        #expect((model["flds"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Word", "Meaning", "Audio"])
        #expect((model["flds"] as? [[String: Any]])?.map { $0["ord"] as? Int } == [0, 1, 2])
        let templates = try #require(model["tmpls"] as? [[String: Any]])
        #expect(templates.count == 1 && templates[0]["qfmt"] as? String == "{{Word}}<br>{{Audio}}")
        #expect(model["css"] as? String == AnkiNoteType.defaultCSS)
        #expect((model["latexPre"] as? String)?.contains("\\begin{document}") == true)
        #expect(model["latexPost"] as? String == "\\end{document}")
        let req = try #require(model["req"] as? [[Any]])
        #expect(req.count == 1 && req[0][1] as? String == "any" && req[0][2] as? [Int] == [0, 2])

        let dconf = try json(try db.scalar("SELECT dconf FROM col")?.textValue)
        #expect(dconf["1"] != nil)
        let conf = try json(try db.scalar("SELECT conf FROM col")?.textValue)
        #expect(conf["curModel"] as? Int64 == Fixture.noteType.id)
        #expect(conf["nextPos"] as? Int == 4)
        #expect(try db.scalar("SELECT tags FROM col")?.textValue == "{}")
    }

    @Test func sameInputGivesSameBytes() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        let package = Fixture.package(maoClipPath: dir.file("mao.wav"))
        try AnkiPackageWriter.write(package, to: dir.file("a.apkg"), now: Fixture.now)
        try AnkiPackageWriter.write(package, to: dir.file("b.apkg"), now: Fixture.now)
        #expect(try readBytes(dir.file("a.apkg")) == readBytes(dir.file("b.apkg")))
        try AnkiPackageWriter.write(package, to: dir.file("c.apkg"), now: Fixture.now + 1)
        #expect(try readBytes(dir.file("a.apkg")) != readBytes(dir.file("c.apkg")))
    }

    /// The mao clip's file disappears: the failure comes after the collection was built and
    /// two entries were zipped, i.e. with both temporary files on disk.
    @Test func failureMidWayLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let target = dir.file("deck.apkg")
        #expect(throws: AnkiExportError.io(operation: "open", path: dir.file("gone.wav"), errno: ENOENT)) {
            try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("gone.wav")), to: target, now: Fixture.now)
        }
        #expect(try dir.contents() == [])
    }

    @Test func failureKeepsThePreviousPackage() throws {
        let dir = try TemporaryDirectory()
        let target = dir.file("deck.apkg")
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("mao.wav")), to: target, now: Fixture.now)
        let before = try readBytes(target)
        #expect(throws: AnkiExportError.self) {
            try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("gone.wav")), to: target, now: Fixture.now + 60)
        }
        #expect(try readBytes(target) == before)
        #expect(try dir.contents() == ["deck.apkg", "mao.wav"])
    }

    @Test func unwritableDirectoryFails() throws {
        #expect(throws: AnkiExportError.self) {
            try AnkiPackageWriter.write(
                Fixture.package(maoClipPath: "/nonexistent/mao.wav"),
                to: "/nonexistent-dir/deck.apkg", now: Fixture.now)
        }
    }

    @Test func oneCardPerTemplateUnlessItsFrontIsEmpty() throws {
        let dir = try TemporaryDirectory()
        var type = Fixture.noteType
        type.templates.append(.init(name: "Recall", front: "{{Meaning}}", back: "{{FrontSide}}<hr id=answer>{{Word}}"))
        let package = AnkiPackage(
            deckID: Fixture.deckID, deckName: "Two Ways", noteType: type,
            notes: [
                AnkiNote(guid: "both", fields: ["cat", "feline", ""]),
                AnkiNote(guid: "forward-only", fields: ["dog", " <br>", ""]),
            ])
        try AnkiPackageWriter.write(package, to: dir.file("two.apkg"), now: Fixture.now)
        let archive = try ZipArchiveReader(bytes: try readBytes(dir.file("two.apkg")))
        try writeBytes(try #require(archive["collection.anki2"]), to: dir.file("c.anki2"))
        let db = try Database(path: dir.file("c.anki2"), mode: .readOnly)
        let cards = try db.query("SELECT n.guid, c.ord, c.due FROM cards c JOIN notes n ON n.id = c.nid ORDER BY c.id") {
            "\($0.text(0) ?? "")/\($0.int(1))/\($0.int(2))"
        }
        #expect(cards == ["both/0/1", "both/1/1", "forward-only/0/2"])
        #expect(String(decoding: try #require(archive["media"]), as: UTF8.self) == "{}")
    }

    static let invalidPackages: [(String, AnkiPackage, AnkiExportError)] = {
        let ok = AnkiPackage(
            deckID: 5, deckName: "D", noteType: Fixture.noteType,
            notes: [AnkiNote(guid: "g", fields: ["w", "m", ""])])
        var defaultDeck = ok
        defaultDeck.deckID = 1
        var emptyDeckPart = ok
        emptyDeckPart.deckName = "A:: ::B"
        var duplicateGUID = ok
        duplicateGUID.notes.append(AnkiNote(guid: "g", fields: ["x", "", ""]))
        var shortNote = ok
        shortNote.notes = [AnkiNote(guid: "g", fields: ["w"])]
        var missingMedia = ok
        missingMedia.notes = [AnkiNote(guid: "g", fields: ["w", "", "[sound:x.ogg]"])]
        var conflicting = ok
        conflicting.media = [AnkiMedia(name: "x.ogg", bytes: [1]), AnkiMedia(name: "x.ogg", bytes: [2])]
        var slash = ok
        slash.media = [AnkiMedia(name: "a/b.ogg", bytes: [1])]
        var device = ok
        device.media = [AnkiMedia(name: "con.ogg", bytes: [1])]
        var nfd = ok
        nfd.media = [AnkiMedia(name: "e\u{301}.ogg", bytes: [1])]
        var noCards = ok
        noCards.notes = [AnkiNote(guid: "g", fields: ["", "m", ""])]
        var badField = ok
        badField.noteType.fields = ["Word", "Mean:ing", "Audio"]
        var dupField = ok
        dupField.noteType.fields = ["Word", "word", "Audio"]
        var unknownField = ok
        unknownField.noteType.templates = [.init(name: "T", front: "{{Wort}}", back: "")]
        var noFrontField = ok
        noFrontField.noteType.templates = [.init(name: "T", front: "{{FrontSide}}", back: "{{Word}}")]
        return [
            ("default deck id", defaultDeck, .invalidDeck("id 1: 1 is the Default deck and ids must be positive")),
            ("empty deck part", emptyDeckPart, .invalidDeck("name \"A:: ::B\" has an empty part")),
            ("duplicate guid", duplicateGUID, .duplicateGUID("g")),
            ("field count", shortNote, .invalidNote(guid: "g", reason: "1 fields for a note type with 3")),
            ("sound without media", missingMedia, .missingMedia(name: "x.ogg", guid: "g")),
            ("same name, other bytes", conflicting, .conflictingMedia(name: "x.ogg")),
            ("slash in media name", slash, .invalidMediaName(name: "a/b.ogg", reason: "contains \"/\"")),
            ("device name", device, .invalidMediaName(name: "con.ogg", reason: "is a Windows device name")),
            ("NFD media name", nfd, .invalidMediaName(name: "e\u{301}.ogg", reason: "not in NFC")),
            ("no card", noCards, .noCards(guid: "g")),
            ("colon in field name", badField, .invalidNoteType("Vocab Word: field name \"Mean:ing\" is empty or contains one of : { } \"")),
            ("field twice", dupField, .invalidNoteType("Vocab Word: field \"word\" appears twice")),
            ("unknown field", unknownField, .invalidNoteType("Vocab Word: template \"T\" refers to unknown field \"Wort\"")),
            ("no front field", noFrontField, .invalidNoteType("Vocab Word: the front of template \"T\" shows no field")),
        ]
    }()

    @Test(arguments: invalidPackages)
    func invalidInputIsRefusedBeforeWriting(_ name: String, _ package: AnkiPackage, _ error: AnkiExportError) throws {
        let dir = try TemporaryDirectory()
        #expect(throws: error, "\(name)") { try AnkiPackageWriter.write(package, to: dir.file("x.apkg"), now: Fixture.now) }
        #expect(try dir.contents() == [])
    }

    @Test func sameMediaFromTheSamePathIsListedOnce() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(tinyWAV(), to: dir.file("a.wav"))
        let package = AnkiPackage(
            deckID: 5, deckName: "D", noteType: Fixture.noteType,
            notes: [AnkiNote(guid: "g", fields: ["w", "", "[sound:a.wav][sound:a.wav]"])],
            media: [AnkiMedia(name: "a.wav", path: dir.file("a.wav")), AnkiMedia(name: "a.wav", path: dir.file("a.wav"))])
        try AnkiPackageWriter.write(package, to: dir.file("x.apkg"), now: Fixture.now)
        let archive = try ZipArchiveReader(bytes: try readBytes(dir.file("x.apkg")))
        #expect(archive.entries.map(\.name) == ["collection.anki2", "media", "0"])
        #expect(archive["0"] == tinyWAV())
    }
}

import Foundation
import SQLiteDB
import Testing

@testable import AnkiExport

/// The official `anki` Python package (what Anki desktop runs) imports what we write.
/// Needs python3 with `anki` installed; runs offline.
@Suite(.serialized) struct AnkiOracleTests {
    @Test func apkgImportsThenReimportUpdatesInPlace() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        let collection = dir.file("collection.anki2")
        let expected = Fixture.notes().map { note in
            // Anki's tag rules: whitespace inside a tag is not allowed (see AnkiNote.tags).
            (note.guid, note.fields, PreparedPackage.canonicalTags(note.tags))
        }

        let first = dir.file("v1.apkg")
        try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("mao.wav")), to: first, now: Fixture.now)
        let imported = try AnkiOracle.importFile("apkg", first, collection: collection)
        #expect(
            imported.log
                == .init(
                    new: 3, updated: 0, duplicate: 0, conflicting: 0, first_field_match: 0,
                    missing_notetype: 0, missing_deck: 0, empty_first_field: 0, found_notes: 3))
        #expect(imported.note_count == 3)
        #expect(imported.card_count == 3)
        for (guid, fields, tags) in expected {
            let note = try #require(imported.note(guid), "note \(guid) missing")
            #expect(utf8(note.fields) == utf8(fields))
            #expect(Set(note.tags) == Set(tags))
            #expect(note.notetype == "Vocab Word")
        }
        #expect(imported.decks.contains(Fixture.deckName))
        #expect(imported.decks.contains("Default"))
        #expect(imported.cards.allSatisfy { $0.deck == Fixture.deckName && $0.type == 0 && $0.queue == 0 })
        #expect(imported.notetypes.contains { $0.name == "Vocab Word" && $0.fields == ["Word", "Meaning", "Audio"] })
        #expect(imported.media_files == [Fixture.catClip, Fixture.maoClip])
        #expect(imported.media_check.missing.isEmpty && imported.media_check.unused.isEmpty)
        #expect(imported.integrity.ok, "\(imported.integrity.problems)")
        // Anki recomputed csum and sfld on import; ours must agree with its values.
        let (_, ours) = try packageNotes(first, in: dir)
        for note in imported.notes {
            #expect(ours[note.guid]?.csum == note.csum, "csum of \(note.guid)")
            #expect(ours[note.guid]?.sfld == note.sfld, "sfld of \(note.guid)")
        }

        // Same guids, one meaning changed, written a minute later: Anki's default "update if
        // newer" replaces the changed note and adds nothing.
        let second = dir.file("v2.apkg")
        try AnkiPackageWriter.write(
            Fixture.package(maoClipPath: dir.file("mao.wav"), catMeaning: "a feline (updated)"),
            to: second, now: Fixture.now + 60)
        let reimported = try AnkiOracle.importFile("apkg", second, collection: collection)
        #expect(reimported.log.new == 0)
        #expect(reimported.log.updated == 3) // every note of the newer package counts as updated
        #expect(reimported.log.duplicate == 0 && reimported.log.conflicting == 0)
        #expect(reimported.note_count == 3)
        #expect(reimported.card_count == 3)
        #expect(reimported.note(Fixture.catGUID)?.fields[1] == "a feline (updated)")
        #expect(reimported.note(Fixture.kittenGUID).map { utf8($0.fields) } == utf8(expected[1].1))
        #expect(reimported.note(Fixture.catGUID)?.mtime == Fixture.now + 60)
        #expect(reimported.media_files == [Fixture.catClip, Fixture.maoClip])
        #expect(reimported.notetypes.filter { $0.name.hasPrefix("Vocab Word") }.count == 1)
        #expect(reimported.integrity.ok, "\(reimported.integrity.problems)")

        // The very same package again: nothing is newer, so all three are duplicates.
        let again = try AnkiOracle.importFile("apkg", second, collection: collection)
        #expect(again.log.new == 0 && again.log.updated == 0 && again.log.duplicate == 3)
        #expect(again.note_count == 3)
    }

    /// With each note's own change time, a re-import reports exactly the changed note as updated.
    @Test func perNoteModifiedTimesUpdateOnlyChangedNotes() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        let collection = dir.file("collection.anki2")
        var package = Fixture.package(maoClipPath: dir.file("mao.wav"))
        for i in package.notes.indices { package.notes[i].modified = Fixture.now - 3600 }
        try AnkiPackageWriter.write(package, to: dir.file("v1.apkg"), now: Fixture.now)
        #expect(try AnkiOracle.importFile("apkg", dir.file("v1.apkg"), collection: collection).log.new == 3)

        package.notes[1].fields[1] = "a young cat (edited)"
        package.notes[1].modified = Fixture.now + 30
        try AnkiPackageWriter.write(package, to: dir.file("v2.apkg"), now: Fixture.now + 60)
        let result = try AnkiOracle.importFile("apkg", dir.file("v2.apkg"), collection: collection)
        #expect(result.log.new == 0 && result.log.updated == 1 && result.log.duplicate == 2)
        #expect(result.note(Fixture.kittenGUID)?.fields[1] == "a young cat (edited)")
        #expect(result.note(Fixture.kittenGUID)?.mtime == Fixture.now + 30)
        #expect(result.note_count == 3 && result.card_count == 3)
    }

    /// Into a fresh collection, on the stock "Basic" note type: the header lines choose deck,
    /// note type and columns, the guid column gives the notes our guids, and tabs, quotes and
    /// line breaks survive.
    @Test func csvImportHonoursHeadersAndGUIDs() throws {
        let dir = try TemporaryDirectory()
        let basic = AnkiNoteType(
            id: 1, name: "Basic", fields: ["Front", "Back"],
            templates: [.init(name: "Card 1", front: "{{Front}}", back: "{{Back}}")])
        let notes = [
            AnkiNote(
                guid: AnkiGUID.stable(for: "catalog:animals:cat"), fields: ["cat", "<b>feline</b>\tand \"friend\""],
                tags: ["animals"]),
            AnkiNote(guid: "#starts-with-hash", fields: ["#dog", "line one\nline two"], tags: ["animals", "pets"]),
            AnkiNote(guid: AnkiGUID.stable(for: "catalog:animals:猫"), fields: ["猫", "māo [sound:\(Fixture.maoClip)]"]),
        ]
        let path = dir.file("notes.txt")
        try AnkiCSVWriter.text(noteType: basic, deckName: "Vocab::CSV", notes: notes)
            .write(toFile: path, atomically: true, encoding: .utf8)

        let result = try AnkiOracle.importFile("csv", path, collection: dir.file("collection.anki2"))
        let metadata = try #require(result.csv_metadata)
        #expect(metadata.delimiter == "TAB")
        #expect(metadata.is_html)
        #expect(metadata.guid_column == 1 && metadata.tags_column == 4)
        #expect(metadata.column_labels == ["guid", "Front", "Back", "tags"])
        #expect(metadata.notetype == "Basic")
        #expect(metadata.field_columns == [2, 3])
        #expect(metadata.deck_name == "Vocab::CSV")
        #expect(result.log.new == 3)
        #expect(result.note_count == 3)
        for note in notes {
            let imported = try #require(result.note(note.guid), "guid \(note.guid) not honoured")
            #expect(utf8(imported.fields) == utf8(note.fields))
            #expect(Set(imported.tags) == Set(note.tags))
        }
        #expect(result.decks.contains("Vocab::CSV"))
        #expect(result.cards.allSatisfy { $0.deck == "Vocab::CSV" })
    }

    /// After the .apkg created the note type, a CSV with the same guids updates those notes.
    @Test func csvReimportUpdatesNotesFromThePackage() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(tinyWAV(frequency: 660), to: dir.file("mao.wav"))
        let collection = dir.file("collection.anki2")
        try AnkiPackageWriter.write(Fixture.package(maoClipPath: dir.file("mao.wav")), to: dir.file("v1.apkg"), now: Fixture.now)
        _ = try AnkiOracle.importFile("apkg", dir.file("v1.apkg"), collection: collection)

        var notes = Fixture.notes()
        notes[0].fields[1] = "changed through CSV"
        try AnkiCSVWriter.text(noteType: Fixture.noteType, deckName: Fixture.deckName, notes: notes)
            .write(toFile: dir.file("notes.txt"), atomically: true, encoding: .utf8)
        let result = try AnkiOracle.importFile("csv", dir.file("notes.txt"), collection: collection)
        #expect(result.csv_metadata?.notetype == "Vocab Word")
        #expect(result.log.new == 0)
        #expect(result.note_count == 3)
        #expect(result.card_count == 3)
        #expect(result.note(Fixture.catGUID)?.fields[1] == "changed through CSV")
        #expect(result.note(Fixture.maoGUID).map { utf8($0.fields) } == utf8(notes[2].fields))
    }

    private struct StoredNote {
        let csum: Int64
        let sfld: String
    }

    private func packageNotes(_ apkg: String, in dir: TemporaryDirectory) throws -> (ZipArchiveReader, [String: StoredNote]) {
        let archive = try ZipArchiveReader(bytes: try readBytes(apkg))
        let copy = dir.file("inspect-\(UUID().uuidString).anki2")
        try writeBytes(try #require(archive["collection.anki2"]), to: copy)
        let db = try SQLiteDB.Database(path: copy, mode: .readOnly)
        let rows = try db.query("SELECT guid, csum, CAST(sfld AS TEXT) FROM notes") {
            ($0.text(0) ?? "", StoredNote(csum: $0.int(1), sfld: $0.text(2) ?? ""))
        }
        return (archive, Dictionary(uniqueKeysWithValues: rows))
    }
}

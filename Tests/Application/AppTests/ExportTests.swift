import App
import AppCore
import Catalog
import Foundation
import Learners
import TestSupport
import Testing

/// The official `anki` package (PyPI, installed by scripts/install-deps) imports what vocab
/// exports: the oracle for the package format.
@Suite("Anki export, imported by Anki itself")
struct ExportTests {
    static let importer = Repository.root + "/Tests/Foundations/AnkiExportTests/Scripts/anki_import.py"

    func anki(_ kind: String, _ file: String, collection: String) throws -> [String: Any] {
        let result = try runProcess("/usr/bin/env", ["python3", Self.importer, kind, file, "--collection", collection])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test(
        "a library as .apkg: one note per item with its clip (Mandarin readings spoken from their pinyin, one clip each) and its drawing; a second import adds nothing"
    )
    func package() async throws {
        let box = try await AppSandbox(catalog: { dir in
            try LearningFixtures.writeCatalog(in: dir)
            let animals = dir.file("Categories/animals.json")
            let text = try String(contentsOfFile: animals, encoding: .utf8)
            try dir.write(
                "Categories/animals.json",
                text.replacingOccurrences(of: #""vi": "con mèo","#, with: #""vi": "con mèo", "picture": "🐈", "image": "openmoji/1F408.svg","#))
            try dir.write("Pictures/openmoji/1F408.svg", #"<svg viewBox="0 0 72 72" xmlns="http://www.w3.org/2000/svg"><circle cx="36" cy="36" r="30"/></svg>"#)
        })
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        for word in ["cat", "ice cream"] { _ = try await box.learning.save(word, for: me) }
        _ = try await box.learning.save("行", for: me, reading: "háng")
        _ = try await box.learning.save("行", for: me, reading: "xíng")
        let exporter = box.app.exports()
        let file = box.dir.file("me.apkg")
        let summary = try await exporter.export(try await box.learning.exportItems(of: me), deck: "vocab::me", format: .apkg, to: file)
        #expect(summary.notes == 4 && summary.clips == 4 && summary.pictures == 1, "\(summary.missingClips)")

        let collection = box.dir.file("anki/collection.anki2")
        try FileManager.default.createDirectory(atPath: box.dir.file("anki"), withIntermediateDirectories: true)
        let first = try anki("apkg", file, collection: collection)
        #expect(first["note_count"] as? Int == 4 && first["card_count"] as? Int == 4)
        #expect((first["media_files"] as? [String])?.count == 5)
        #expect((first["media_files"] as? [String])?.contains("vocab-picture-openmoji-1F408.svg") == true)
        let notes = try #require((first["notes"] as? [[String: Any]])?.compactMap { $0["fields"] as? [String] })
        // The drawing first, as a child meets the word.
        let cat = try #require(
            notes.first { $0.first == #"<img src="vocab-picture-openmoji-1F408.svg" alt="">cat"# },
            "\(notes.map { $0.first ?? "" })")
        #expect(cat[1].contains("con mèo") && cat[4].hasPrefix("[sound:vocab-british-catalog-animals-cat") && cat[5] == "catalog:animals/cat")
        let hang = try #require(notes.first { $0.first == "行" && $0[2].contains("háng") })
        #expect(hang[2].contains("ㄏㄤˊ") && hang[4] == "[sound:vocab-mandarin-moe-行-hang2.ogg]" && hang[5] == "moe:行#háng")
        #expect(notes.contains { $0.first == "行" && $0[4] == "[sound:vocab-mandarin-moe-行-xing2.ogg]" }, "each reading its own clip")

        let again = box.dir.file("again.apkg")
        _ = try await exporter.export(try await box.learning.exportItems(of: me), deck: "vocab::me", format: .apkg, to: again)
        let second = try anki("apkg", again, collection: collection)
        #expect(second["note_count"] as? Int == 4, "no duplicate notes")
        let log = try #require(second["log"] as? [String: Int])
        #expect(log["new"] == 0 && log["updated"] == 0)
    }

    @Test("catalog words of a category and level as Anki's CSV, with the guid column")
    func csv() async throws {
        let box = try await AppSandbox(mandarin: false)
        defer { box.dir.remove() }
        let items = try await box.learning.exportItems(category: "food", level: .starters)
        let file = box.dir.file("food.csv")
        let summary = try await ExportService(clips: nil).export(items, deck: "vocab::food starters", format: .csv, to: file)
        #expect(summary.notes == 6)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("#separator:Tab\n#html:true\n"))
        #expect(text.contains("#guid column:1") && text.contains("#deck:vocab::food starters"))
        try FileManager.default.createDirectory(atPath: box.dir.file("anki"), withIntermediateDirectories: true)
        // Anki imports a CSV into a note type the collection has: import the package's first.
        let apkg = box.dir.file("food.apkg")
        _ = try await ExportService(clips: nil).export(items, deck: "vocab::food starters", format: .apkg, to: apkg)
        let collection = box.dir.file("anki/collection.anki2")
        _ = try anki("apkg", apkg, collection: collection)
        let imported = try anki("csv", file, collection: collection)
        #expect(imported["note_count"] as? Int == 6, "the guid column matched the package's notes: \(imported)")
    }

    @Test("the CSV imported over the package's notes keeps their sound: it names the same clips")
    func csvOverThePackageKeepsTheSound() async throws {
        let box = try await AppSandbox(mandarin: false)
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        for word in ["cat", "ice cream", "apple"] { _ = try await box.learning.save(word, for: me) }
        let exporter = ExportService(clips: box.app.audio.clips().service)
        let items = try await box.learning.exportItems(of: me)
        let apkg = box.dir.file("me.apkg")
        let csv = box.dir.file("me.csv")
        _ = try await exporter.export(items, deck: "vocab::me", format: .apkg, to: apkg)
        _ = try await exporter.export(items, deck: "vocab::me", format: .csv, to: csv)
        try FileManager.default.createDirectory(atPath: box.dir.file("anki"), withIntermediateDirectories: true)
        let collection = box.dir.file("anki/collection.anki2")
        let packaged = try #require((try anki("apkg", apkg, collection: collection)["notes"] as? [[String: Any]])?.compactMap { $0["fields"] as? [String] })
        let after = try #require((try anki("csv", csv, collection: collection)["notes"] as? [[String: Any]])?.compactMap { $0["fields"] as? [String] })
        #expect(after.count == 3)
        for note in after {
            #expect(note[4].hasPrefix("[sound:vocab-british-catalog-"), "\(note)")
            #expect(packaged.first { $0[5] == note[5] }?[4] == note[4], "the same clip as the package's note: \(note)")
        }
    }
}

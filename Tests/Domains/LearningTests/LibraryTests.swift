import Catalog
import Foundation
import Library
import Store
import TestSupport
import Testing

@Suite("the word library")
struct LibraryTests {
    @Test func addListRemove() async throws {
        let box = try await Sandbox()
        let clock = TestClock()
        let library = WordLibrary(store: box.userStore, catalog: box.catalog, now: clock.closure)
        let added = try await library.add("cat")
        #expect(added == .added(SavedWord(word: "cat", savedAt: clock.now(), source: .catalog)))
        clock.advance(60)
        _ = try await library.add("Ice Cream")
        let list = try await library.list()
        #expect(list.map(\.word) == ["cat", "ice cream"], "catalog spelling, oldest first")
        #expect(list.last?.savedAt == clock.now())
        let removed = try await library.remove("CAT")
        #expect(removed.word == "cat")
        #expect(try await library.list().map(\.word) == ["ice cream"])
        await #expect(throws: LibraryError.notSaved("cat")) { try await library.remove("cat") }
    }

    @Test func addingTwiceIsIdempotent() async throws {
        let box = try await Sandbox()
        let clock = TestClock()
        let library = WordLibrary(store: box.userStore, catalog: box.catalog, now: clock.closure)
        let first = try await library.add("dog")
        clock.advance(3600)
        let second = try await library.add("Dog")
        #expect(second == .alreadySaved(first.entry), "keeps the first date")
        #expect(try await library.list().count == 1)
    }

    @Test func unknownWordIsRefusedWithSuggestions() async throws {
        let box = try await Sandbox()
        let library = WordLibrary(store: box.userStore, catalog: box.catalog)
        do {
            _ = try await library.add("elefant") { _ in .unknown }
            Issue.record("expected unknownWord")
        } catch let LibraryError.unknownWord(word, suggestions, note) {
            #expect(word == "elefant" && suggestions.contains("elephant") && note == nil)
        }
        await #expect(throws: LibraryError.self) { try await library.add("zzz") { _ in .unavailable(reason: "offline") } }
        #expect(try await library.list().isEmpty)
    }

    @Test func wordTheDictionaryKnowsIsSavedWithThatSource() async throws {
        let box = try await Sandbox()
        let library = WordLibrary(store: box.userStore, catalog: box.catalog)
        let result = try await library.add("Serendipity") { word in
            #expect(word == "serendipity")
            return .known(headword: "serendipity", partOfSpeech: "noun", definition: "a happy accident", phonetic: "/ˌsɛɹənˈdɪpɪti/")
        }
        #expect(result.entry.source == .dictionary)
        #expect(result.entry.definition == "a happy accident")
        let entries = try await library.entries()
        #expect(entries.first?.catalog.isEmpty == true)
        let again = try await library.add("serendipity") { _ in
            Issue.record("a saved word needs no dictionary")
            return .unknown
        }
        #expect(again == .alreadySaved(result.entry))
    }

    @Test func catalogWordsNeverAskTheDictionary() async throws {
        let box = try await Sandbox()
        let library = WordLibrary(store: box.userStore, catalog: box.catalog)
        _ = try await library.add("fish") { _ in
            Issue.record("fish is in the catalog")
            return .unknown
        }
    }

    @Test func survivesACatalogRebuild() async throws {
        let box = try await Sandbox()
        _ = try await WordLibrary(store: box.userStore, catalog: box.catalog).add("cat")
        _ = try await WordLibrary(store: box.userStore, catalog: box.catalog).add("lion")
        // Change the data, force a rebuild, and even delete the catalog database outright.
        try box.dir.write("Categories/animals.json", try String(contentsOfFile: box.dir.file("Categories/animals.json"), encoding: .utf8)
            .replacingOccurrences(of: "con mèo", with: "mèo nhà"))
        _ = try await Sandbox.openCatalog(box.dir, force: true)
        try FileManager.default.removeItem(atPath: box.dir.file("catalog.sqlite"))
        let rebuilt = try await Sandbox.openCatalog(box.dir, force: false)
        let reopened = WordLibrary(store: try SQLiteDocumentStore(path: box.dir.file("user.sqlite")), catalog: rebuilt)
        let entries = try await reopened.entries()
        #expect(entries.map(\.saved.word) == ["cat", "lion"])
        #expect(entries.first?.catalog.first?.vi == "mèo nhà", "details follow the rebuilt catalog")
    }
}

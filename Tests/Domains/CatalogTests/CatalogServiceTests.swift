import Cache
import Foundation
import Store
import TestSupport
import Testing

@testable import Catalog

@Suite("Building and querying the catalog")
struct CatalogServiceTests {
    let dir: TemporaryDirectory
    let indexer: CatalogIndexer

    init() throws {
        dir = try TemporaryDirectory("catalog")
        try CatalogFixture.small(in: dir)
        indexer = CatalogIndexer(source: CatalogSource(directory: dir.file("Categories")), databasePath: dir.file("db/catalog.sqlite"))
    }

    @Test func firstUseBuildsThenTheDatabaseIsReused() async throws {
        let (_, first) = try await indexer.open()
        #expect(first == .rebuilt(reason: "first use", categories: 2, words: 5))
        let (_, second) = try await indexer.open()
        #expect(second == .upToDate)
        // Rewriting a file with the same bytes is not a change.
        let path = dir.file("Categories/food.json")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        try data.write(to: URL(fileURLWithPath: path))
        #expect(try await indexer.open().status == .upToDate)
    }

    @Test func changedJSONRebuildsAndInvalidatesTheCache() async throws {
        let cache = QueryCache(storage: MemoryCacheStorage())
        let (store, _) = try await indexer.open()
        let catalog = CatalogService(store: store, cache: cache)
        #expect(try await catalog.words(in: "animals", level: .starters).cache == .miss)
        let hit = try await catalog.words(in: "animals", level: .starters)
        #expect(hit.cache == .hit)
        #expect(hit.words.map(\.word) == ["cat", "dog"])

        try dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", order: 1,
                words: [
                    CatalogFixture.word("cat"), CatalogFixture.word("bird"), CatalogFixture.word("dog"),
                ]))
        let (newStore, status) = try await indexer.open()
        #expect(status == .rebuilt(reason: "category data changed", categories: 2, words: 5))
        let after = try await CatalogService(store: newStore, cache: cache).words(in: "animals", level: .starters)
        #expect(after.cache == .invalidated)
        #expect(after.words.map(\.word) == ["bird", "cat", "dog"])
    }

    @Test func invalidDataKeepsServingThePreviousDatabase() async throws {
        _ = try await indexer.open()
        try dir.write("Categories/animals.json", "{ broken")
        // Commands keep the last good catalog and are told why it is stale…
        let (stale, status) = try await indexer.open()
        guard case .stale(let issues) = status else {
            Issue.record("not stale: \(status)")
            return
        }
        #expect(issues.first?.file == "animals.json")
        #expect(try await CatalogService(store: stale).words(in: "animals", level: nil).total == 3)
        // …while a forced rebuild (vocab index) fails loudly.
        await #expect(throws: CatalogError.self) { try await indexer.open(force: true) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.file("db")).filter { $0.contains("building") }
        #expect(leftovers.isEmpty)
        let store = try SQLiteDocumentStore(path: dir.file("db/catalog.sqlite"), readOnly: true)
        #expect(try await CatalogService(store: store).words(in: "animals", level: nil).total == 3)
    }

    @Test func invalidDataWithNoEarlierCatalogFails() async throws {
        try dir.write("Categories/animals.json", "{ broken")
        await #expect(throws: CatalogError.self) { try await indexer.open() }
    }

    @Test func wordsAreFilteredByLevelOrderedAndPaged() async throws {
        let catalog = CatalogService(store: try await indexer.open().store)
        #expect(try await catalog.words(in: "animals", level: .movers).words.map(\.word) == ["cat", "dog", "elephant"])
        #expect(try await catalog.words(in: "Animals", level: .starters).words.map(\.word) == ["cat", "dog"])
        let page = try await catalog.words(in: "animals", level: nil, limit: 1, offset: 1)
        #expect(page.words.map(\.word) == ["dog"])
        #expect(page.total == 3)
        #expect(try await catalog.words(in: "food", level: .starters).words.map(\.word) == ["apple"])
    }

    @Test func unknownCategoryComesWithSuggestions() async throws {
        let catalog = CatalogService(store: try await indexer.open().store)
        await #expect(throws: CatalogError.unknownCategory("animal", suggestions: ["animals"])) {
            try await catalog.words(in: "animal", level: nil)
        }
    }

    @Test func summariesCountWordsPerCategoryAndLevel() async throws {
        let catalog = CatalogService(store: try await indexer.open().store)
        let all = try await catalog.summaries()
        #expect(all.map(\.category.id) == ["animals", "food"])
        #expect(all.map(\.wordCount) == [3, 2])
        #expect(all[0].levelCounts == ["starters": 2, "movers": 3, "flyers": 3])
        #expect(try await catalog.summaries(level: .starters).map(\.wordCount) == [2, 1])
    }

    @Test func searchFindsPrefixesFirstAndVietnameseWithoutDiacritics() async throws {
        let catalog = CatalogService(store: try await indexer.open().store)
        #expect(try await catalog.search("ca").map(\.word) == ["cake", "cat"])
        #expect(try await catalog.search("at").map(\.word) == ["cat"])
        #expect(try await catalog.search("meo").map(\.word) == ["cat"])
        #expect(try await catalog.search("quả táo").map(\.word) == ["apple"])
        #expect(try await catalog.search("zzz").isEmpty)
    }

    @Test func aKeyedSenseIsAnEntryOfItsOwnBesideTheHeadwordsFirst() async throws {
        let animal = CatalogFixture.word("bat", extra: #", "sense": {"en": "animal", "vi": "con vật"}"#)
        let toy = CatalogFixture.word("bat", vi: "gậy", extra: #", "sense": {"en": "sports", "vi": "thể thao"}, "key": "bat-sports""#)
        try dir.write("Categories/animals.json", CatalogFixture.category("animals", order: 1, words: [animal, toy]))
        let catalog = CatalogService(store: try await indexer.open().store)
        let entries = try await catalog.entries(for: "bat")
        #expect(entries.map(\.id) == ["animals/bat", "animals/bat-sports"])
        #expect(entries.map(\.word.sense?.en) == ["animal", "sports"])
        #expect(try await catalog.entry(id: "animals/bat-sports")?.word.vi == "gậy")
    }

    @Test("a listed row is labelled by its sense as its decoded word is, read from its JSON without a decoder")
    func aRowsLabelIsItsWordsLabel() async throws {
        let animal = CatalogFixture.word("bat", extra: #", "sense": {"vi": "con vật", "en": "animal \"flying\" \u00e9"}"#)
        let toy = CatalogFixture.word("bat", vi: "gậy", extra: #", "sense": {"en": "sports", "vi": "thể thao"}, "key": "bat-sports""#)
        let plain = CatalogFixture.word("dog")
        try dir.write("Categories/animals.json", CatalogFixture.category("animals", order: 1, words: [animal, toy, plain]))
        let catalog = CatalogService(store: try await indexer.open().store)
        let page = try await catalog.words(in: "animals", level: nil)
        #expect(page.rows.map(\.label) == ["bat · animal \"flying\" é", "bat · sports", "dog"])
        #expect(page.rows.map(\.label) == page.words.map { Word.label($0.word, sense: $0.sense) })
        // Not a sense at the top: nested, null, not an object, or no English in it.
        for json in [#"{"examples": [{"sense": {"en": "x"}}]}"#, #"{"sense": null}"#, #"{"sense": "animal"}"#, #"{"sense": {"vi": "con vật"}}"#] {
            #expect(WordRow(id: "a/b", word: "bat", britishIPA: "", vi: "", json: json).label == "bat", "\(json)")
        }
    }

    @Test func lookupFindsHeadwordsAndSuggestsCloseOnes() async throws {
        let catalog = CatalogService(store: try await indexer.open().store)
        #expect(try await catalog.lookup("cat").map(\.vi) == ["con mèo"])
        await #expect(throws: CatalogError.unknownWord("caat", suggestions: ["cat", "cake"])) { try await catalog.lookup("caat") }
    }
}

import Catalog
import Foundation
import TestSupport
import Testing

@Suite("The real Categories/ data")
struct CatalogDataTests {
    @Test func realCategoriesAreValid() throws {
        let files = try CatalogSource(directory: Repository.categories).read()
        let (decoded, issues) = CatalogValidator().validate(files)
        #expect(issues.isEmpty, "\(issues.prefix(10))")
        #expect(decoded.count == 20)
        #expect(Set(decoded.map(\.order)) == Set(1...20))
        let words = decoded.flatMap(\.words)
        #expect(words.count > 1_000, "the catalog should hold the YLE lists, about 1,400 words")
        for level in Level.allCases {
            #expect(words.contains { $0.firstLevel == level }, "no word introduced at \(level)")
        }
    }

    @Test func ipaIsDictionaryIPANotTTSNotation() throws {
        let words = try CatalogSource(directory: Repository.categories).read().flatMap { file in
            try JSONDecoder().decode(CategoryFile.self, from: file.data).words
        }
        let cat = try #require(words.first { $0.word == "cat" })
        #expect(cat.ipa.british == "kæt")
        // espeak-style notation uses ASCII stand-ins such as "a#" or "3:"; dictionary IPA does not.
        for w in words {
            #expect(!w.ipa.british.contains(where: { "#:0123456789@".contains($0) }), "\(w.word): \(w.ipa.british)")
        }
    }
}

@Suite("Validation names the file and the word")
struct ValidatorTests {
    func issues(_ files: [(String, String)]) -> [String] {
        CatalogValidator().validate(files.map { ($0.0, Data($0.1.utf8)) }).issues.map(\.description)
    }

    @Test func missingFieldIsReported() {
        let broken = CatalogFixture.word("cat").replacingOccurrences(of: #""vi": "con vật","#, with: "")
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [broken]))])
        #expect(found == ["animals.json: word 'cat': missing field 'vi'"])
    }

    @Test func duplicateHeadwordInACategoryIsReported() {
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("cat"), CatalogFixture.word("Cat")]))])
        #expect(found == ["animals.json: word 'Cat': duplicate headword in this category"])
    }

    @Test func unknownLevelAndCategoryAreReported() {
        let word = CatalogFixture.word("cat").replacingOccurrences(of: #""categories": ["animals"]"#, with: #""categories": ["animals", "pets"]"#)
            .replacingOccurrences(of: #""levels": ["starters", "movers", "flyers"]"#, with: #""levels": ["starter", "movers", "flyers"]"#)
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        #expect(found.contains("animals.json: word 'cat': unknown level 'starter' (valid: starters, movers, flyers)"))
        #expect(found.contains("animals.json: word 'cat': unknown category 'pets'"))
    }

    @Test func anExampleForALevelTheWordIsNotAtIsReported() {
        let word = CatalogFixture.word("cat", levels: ["movers", "flyers"])
            .replacingOccurrences(of: #""examples": {"#, with: #""examples": {"starters": "I see a cat.", "#)
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        #expect(found == ["animals.json: word 'cat': example for level 'starters', which is not among the word's levels"], "\(found)")
    }

    @Test func levelsMustBeCumulative() {
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("cat", levels: ["starters", "flyers"])]))])
        #expect(found.contains { $0.contains("must run from the level of introduction to flyers") })
    }

    @Test func invalidJSONIsReportedWithItsFileAndPosition() {
        let found = issues([("animals.json", "{\"id\": \"animals\",\n  \"words\": [1,]\n}")])
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("animals.json: invalid JSON"))
        #expect(found[0].contains("line 2, column 15"), "\(found)")
    }

    @Test func headerMustMatchFileAndBeComplete() {
        let found = issues([("pets.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: "#112233", with: "red"))])
        #expect(found.contains("pets.json: id 'animals' must match the file name 'pets'"))
        #expect(found.contains("pets.json: color 'red' is not #RRGGBB"))
    }
}

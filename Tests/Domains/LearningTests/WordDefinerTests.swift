import Catalog
import Definitions
import Foundation
import TestSupport
import Testing

@Suite("define: catalog and dictionary together")
struct WordDefinerTests {
    @Test func catalogWordGetsBothCatalogEntryAndMeanings() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let result = try await WordDefiner(catalog: box.catalog, definitions: box.definitions(server.baseURL)).define("cat")
        #expect(result.catalog.first?.vi == "con mèo")
        #expect(result.catalog.first?.ipa.british == "kæt")
        #expect(result.remote?.entries.first?.meanings.count == 2)
        #expect(!result.usedOfflineData)
    }

    @Test func catalogAloneAnswersWhenTheDictionaryIsDown() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let base = server.baseURL
        server.stop()
        let result = try await WordDefiner(catalog: box.catalog, definitions: box.definitions(base)).define("dog")
        #expect(result.catalog.first?.vi == "con chó")
        #expect(result.remote == nil && result.remoteFailure != nil)
        #expect(result.usedOfflineData)
    }

    @Test func catalogWordTheDictionaryLacks() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let result = try await WordDefiner(catalog: box.catalog, definitions: box.definitions(server.baseURL)).define("horse")
        #expect(result.catalog.count == 1)
        #expect(result.remote?.found == false)
    }

    @Test func unknownEverywhereIsAnErrorWithSuggestions() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let definer = WordDefiner(catalog: box.catalog, definitions: box.definitions(server.baseURL))
        do {
            _ = try await definer.define("hors")
            Issue.record("expected no definition")
        } catch let DefineError.noDefinition(word, reason, suggestions) {
            #expect(word == "hors")
            #expect(reason.contains("no entry"))
            #expect(suggestions.contains("horse"))
        }
    }
}

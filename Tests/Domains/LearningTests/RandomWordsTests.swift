import Definitions
import Foundation
import HTTPFetch
import TestSupport
import Testing

@Suite("random words")
struct RandomWordsTests {
    func service(_ box: Sandbox, _ base: String) -> RandomWordService {
        RandomWordService(
            client: RandomWordClient(
                http: CurlHTTPClient(), baseURL: base, options: Sandbox.quickOptions,
                retry: Sandbox.quickRetry), catalog: box.catalog)
    }

    @Test func wordsFromTheService() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer { _ in .text(LearningFixtures.randomWords, type: "application/json") }
        let result = try await service(box, server.baseURL).words(count: 5, lang: "en")
        #expect(result.source == .remote)
        #expect(result.words == ["lantern", "meadow", "quiver", "saffron", "tundra"])
        #expect(server.requests(to: "/word?number=5&lang=en") == 1)
    }

    @Test func catalogWordsWhenTheServiceFails() async throws {
        let box = try await Sandbox()
        let server = try SwitchableServer { _ in .text("oops", status: 500) }
        let failing = service(box, server.baseURL)
        let afterError = try await failing.words(count: 4, lang: "en")
        #expect(afterError.source == .catalog && afterError.words.count == 4)
        #expect(afterError.fallbackReason == .status(500, url: server.baseURL + "/word?number=4&lang=en"))
        #expect(afterError.words.allSatisfy { afterError.catalogEntries[$0] != nil })

        server.answer { _ in .text(#"{"words": ["not", "an", "array"]}"#, type: "application/json") }
        guard case .malformed = try await failing.words(count: 4, lang: "en").fallbackReason else {
            Issue.record("expected a malformed answer")
            return
        }
        server.stop()
        guard case .transport = try await failing.words(count: 4, lang: "en").fallbackReason else {
            Issue.record("expected a transport failure")
            return
        }
    }

    @Test func aSeedGivesTheSameDrawAndPagesDoNotOverlap() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer { _ in .text(LearningFixtures.randomWords, type: "application/json") }
        let random = service(box, server.baseURL)
        let first = try await random.words(count: 5, page: 1, seed: 42)
        let again = try await random.words(count: 5, page: 1, seed: 42)
        let second = try await random.words(count: 5, page: 2, seed: 42)
        let other = try await random.words(count: 13, page: 1, seed: 7)
        #expect(first.source == .catalog && first.words == again.words)
        #expect(Set(first.words).isDisjoint(with: second.words))
        #expect(first.words.count == 5 && second.words.count == 5)
        #expect(other.words.count == 13, "the whole fixture catalog")
        let whole42 = try await random.words(count: 13, page: 1, seed: 42)
        #expect(Set(other.words) == Set(whole42.words) && other.words != whole42.words, "another seed, another order")
        #expect(server.requests(to: "/word?number=5&lang=en") == 0, "a seed never asks the service")
        let beyond = try await random.words(count: 5, page: 4, seed: 42)
        #expect(beyond.words.isEmpty)
    }
}

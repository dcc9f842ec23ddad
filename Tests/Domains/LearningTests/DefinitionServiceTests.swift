import Definitions
import Foundation
import HTTPFetch
import Store
import TestSupport
import Testing

@Suite("remote definitions with offline fallback")
struct DefinitionServiceTests {
    let happy = LearningFixtures.entryPath("happy")

    @Test func successParsesMeaningsAndSavesThem() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let result = try await box.definitions(server.baseURL).define("happy")
        #expect(result.origin == .remote)
        #expect(result.found)
        let entry = try #require(result.entries.first)
        #expect(entry.word == "happy")
        #expect(entry.bestPhonetic == "/ˈhæpi/")
        #expect(entry.meanings.map(\.partOfSpeech) == ["adjective", "verb"])
        let first = try #require(entry.meanings.first?.definitions.first)
        #expect(first.example == "Youth is the happiest time of life.")
        #expect(first.synonyms == ["cheerful", "glad"] && first.antonyms == ["sad"])
        #expect(try await box.userStore.get("en/happy", in: DefinitionService.collection) != nil, "saved in the user store")
        #expect(server.requests(to: happy) == 1)
    }

    @Test func secondCallIsServedFromTheSavedCopy() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let clock = TestClock()
        let service = box.definitions(server.baseURL, clock: clock)
        _ = try await service.define("happy")
        clock.advance(3600)
        let again = try await service.define("Happy ")
        #expect(again.origin == .cache)
        #expect(again.entries.first?.word == "happy")
        #expect(server.requests(to: happy) == 1, "the service was not asked again")
        let refreshed = try await service.define("happy", refresh: true)
        #expect(refreshed.origin == .remote)
        #expect(server.requests(to: happy) == 2)
    }

    @Test func staleCopyIsRefreshedWhenOld() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let clock = TestClock()
        let service = box.definitions(server.baseURL, clock: clock, policy: .init(refreshAfter: 60, notFoundFor: 60))
        _ = try await service.define("happy")
        clock.advance(61)
        #expect(try await service.define("happy").origin == .remote)
        #expect(server.requests(to: happy) == 2)
    }

    @Test func fallsBackToTheSavedCopyAfterTheServerStops() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let service = box.definitions(server.baseURL)
        let live = try await service.define("happy")
        server.stop()
        let offline = try await service.define("happy", refresh: true)
        #expect(offline.isOffline)
        #expect(offline.entries == live.entries)
        #expect(offline.fetchedAt == live.fetchedAt, "says when the copy was made")
        guard case .offline(.transport(.unreachable)) = offline.origin else {
            Issue.record("expected an unreachable transport failure, got \(offline.origin)")
            return
        }
    }

    @Test func nothingSavedAndServerGoneIsUnavailable() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let base = server.baseURL
        server.stop()
        await #expect(throws: DefinitionError.self) { try await box.definitions(base).define("happy") }
    }

    @Test func timeoutIsBoundedAndFallsBack() async throws {
        let box = try await Sandbox()
        let server = try SwitchableServer(LearningFixtures.dictionaryResponse)
        let service = box.definitions(server.baseURL)
        _ = try await service.define("happy")
        // Slower than the client's 0.5 s limit: the first try uses the whole budget, so no retry
        // starts after it (the limit bounds the whole wait), and the saved copy answers.
        server.answer { path in
            var slow = LearningFixtures.dictionaryResponse(path)
            slow.delay = 3
            return slow
        }
        let result = try await service.define("happy", refresh: true)
        guard case .offline(.transport(.timedOut)) = result.origin else {
            Issue.record("expected a timeout, got \(result.origin)")
            return
        }
        #expect(result.found)
        #expect(server.requests(to: happy) == 2, "one success, then one try that timed out and no retry")
    }

    @Test func notFoundIsRememberedForItsTTL() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let clock = TestClock()
        let service = box.definitions(server.baseURL, clock: clock, policy: .init(refreshAfter: 7 * 86_400, notFoundFor: 86_400))
        let path = LearningFixtures.entryPath("qwertyuiop")
        let first = try await service.define("qwertyuiop")
        #expect(!first.found && first.origin == .remote)
        clock.advance(3600)
        let second = try await service.define("qwertyuiop")
        #expect(!second.found && second.origin == .cache)
        #expect(server.requests(to: path) == 1, "a 404 is not asked again within its TTL")
        clock.advance(86_400)
        _ = try await service.define("qwertyuiop")
        #expect(server.requests(to: path) == 2, "and is asked again after it")
    }

    @Test func malformedBodyFallsBackToTheSavedCopy() async throws {
        let box = try await Sandbox()
        let server = try SwitchableServer(LearningFixtures.dictionaryResponse)
        let service = box.definitions(server.baseURL)
        _ = try await service.define("happy")
        for garbage in ["<html>Service moved</html>", #"{"word": "happy"}"#, "[]", #"[{"word":"happy","meanings":[]}]"#] {
            server.answer { _ in .text(garbage, type: "application/json") }
            let result = try await service.define("happy", refresh: true)
            guard case .offline(.malformed) = result.origin else {
                Issue.record("\(garbage): expected malformed, got \(result.origin)")
                continue
            }
            #expect(result.found, "the saved copy is still served")
        }
        await #expect(throws: DefinitionError.self, "nothing saved for cat, so nothing to fall back on") {
            try await service.define("cat")
        }
    }

    @Test func serverErrorsAreRetriedOnceThenFallBack() async throws {
        let box = try await Sandbox()
        let server = try SwitchableServer(LearningFixtures.dictionaryResponse)
        let service = box.definitions(server.baseURL, options: Sandbox.roomyOptions)
        _ = try await service.define("happy")
        server.answer { _ in .text("upstream down", status: 503) }
        let result = try await service.define("happy", refresh: true)
        guard case .offline(.status(503, _)) = result.origin else {
            Issue.record("expected HTTP 503, got \(result.origin)")
            return
        }
        #expect(server.requests(to: happy) == 3, "one success, then one try and one retry")
    }

    @Test func aRetryCanRescueATransientServerError() async throws {
        let box = try await Sandbox()
        let failures = Counter()
        let server = try LoopbackHTTPServer { path in
            failures.next() == 0 ? .text("busy", status: 502) : LearningFixtures.dictionaryResponse(path)
        }
        let result = try await box.definitions(server.baseURL, options: Sandbox.roomyOptions).define("happy")
        #expect(result.origin == .remote && result.found)
        #expect(server.requests(to: happy) == 2)
    }

    @Test func wordsAreURLEncoded() async throws {
        let box = try await Sandbox()
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let result = try await box.definitions(server.baseURL).define("ice cream")
        #expect(result.found)
        #expect(server.requests(to: "/api/v2/entries/en/ice%20cream") == 1)
        let client = DictionaryAPIClient(http: CurlHTTPClient(), baseURL: "http://x/")
        #expect(client.url(for: "a/b?c#d", lang: "en") == "http://x/api/v2/entries/en/a%2Fb%3Fc%23d")
        #expect(client.url(for: "phở", lang: "vi") == "http://x/api/v2/entries/vi/ph%E1%BB%9F")
    }
}

/// Counts calls across the server's threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}

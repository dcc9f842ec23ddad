import Foundation
import Store

/// Where a definition came from, so the user can be told when it is not live.
public enum DefinitionOrigin: Sendable, Equatable {
    /// Just fetched.
    case remote
    /// A saved answer still within its freshness window; the service was not asked.
    case cache
    /// The service failed; this is the last saved answer.
    case offline(RemoteFailure)

    public var name: String {
        switch self {
        case .remote: return "remote"
        case .cache: return "cache"
        case .offline: return "offline"
        }
    }
}

public struct DefinitionResult: Sendable, Equatable {
    public var word: String
    public var lang: String
    /// Empty when the dictionary has no entry for the word (it answered 404).
    public var entries: [DictionaryEntry]
    /// When the dictionary gave this answer.
    public var fetchedAt: Date
    public var origin: DefinitionOrigin

    public var found: Bool { !entries.isEmpty }
    public var isOffline: Bool { if case .offline = origin { return true } else { return false } }
}

public enum DefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyWord
    /// The service failed and nothing was saved from an earlier answer.
    case unavailable(word: String, RemoteFailure)

    public var description: String {
        switch self {
        case .emptyWord: return "give a word to define."
        case .unavailable(let word, let failure):
            return "the dictionary is unavailable (\(failure)) and there is no saved definition of '\(word)'."
        }
    }
}

/// Definitions from the remote dictionary, kept in a document store so they survive going offline.
///
/// A saved definition is served without asking the service until it is `refreshAfter` old;
/// after that the service is asked again and the saved copy is the fallback when it fails.
/// "No entry" answers are remembered for a shorter `notFoundFor`, since dictionaries grow.
public struct DefinitionService: Sendable {
    public static let collection = "definitions"

    public struct Policy: Sendable, Hashable {
        public var refreshAfter: TimeInterval
        public var notFoundFor: TimeInterval

        public init(refreshAfter: TimeInterval = 7 * 86_400, notFoundFor: TimeInterval = 86_400) {
            self.refreshAfter = refreshAfter
            self.notFoundFor = notFoundFor
        }
    }

    let client: DictionaryAPIClient
    let store: any DocumentStore
    let policy: Policy
    let now: @Sendable () -> Date

    public init(
        client: DictionaryAPIClient, store: any DocumentStore, policy: Policy = Policy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.store = store
        self.policy = policy
        self.now = now
    }

    /// What is saved per (language, word).
    struct Saved: Codable {
        var word: String
        var lang: String
        var entries: [DictionaryEntry]
        var fetchedAt: Date
    }

    /// `refresh` asks the service even when the saved copy is fresh.
    public func define(_ text: String, lang: String = "en", refresh: Bool = false) async throws -> DefinitionResult {
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !word.isEmpty else { throw DefinitionError.emptyWord }
        let id = "\(lang)/\(word)"
        // An unreadable saved copy (from an older layout) is as good as none.
        let saved = try? await store.get(id, in: Self.collection)?.decode(Saved.self)
        if let saved, !refresh, isFresh(saved) {
            return DefinitionResult(word: word, lang: lang, entries: saved.entries, fetchedAt: saved.fetchedAt, origin: .cache)
        }
        let answer: DictionaryAPIClient.Answer
        do throws(RemoteFailure) {
            answer = try await client.lookup(word, lang: lang)
        } catch {
            guard let saved else { throw DefinitionError.unavailable(word: word, error) }
            return DefinitionResult(
                word: word, lang: lang, entries: saved.entries, fetchedAt: saved.fetchedAt,
                origin: .offline(error))
        }
        let entries: [DictionaryEntry]
        if case .found(let found) = answer { entries = found } else { entries = [] }
        let fresh = Saved(word: word, lang: lang, entries: entries, fetchedAt: now())
        // A cache that cannot be written (read-only home, full disk) must not cost the live answer.
        try? await store.put([Document(id: id, encoding: fresh)], in: Self.collection)
        return DefinitionResult(word: word, lang: lang, entries: entries, fetchedAt: fresh.fetchedAt, origin: .remote)
    }

    func isFresh(_ saved: Saved) -> Bool {
        let age = now().timeIntervalSince(saved.fetchedAt)
        // A clock that went backwards makes every age suspect: ask again.
        return age >= 0 && age < (saved.entries.isEmpty ? policy.notFoundFor : policy.refreshAfter)
    }
}

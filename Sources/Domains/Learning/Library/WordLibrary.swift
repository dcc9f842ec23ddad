import Catalog
import Foundation
import Store

/// The learner's saved words, kept in the user's store, never in the catalog database,
/// which is rebuilt from `Categories/` and replaced whole.
public struct WordLibrary: Sendable {
    public static let collection = "library"

    /// Asks the online dictionary about a word the catalog lacks. A closure rather than a
    /// dependency, so the library works (and is tested) without the network module.
    public typealias DictionaryLookup = @Sendable (String) async -> DictionaryCheck

    let store: any DocumentStore
    let catalog: CatalogService
    let now: @Sendable () -> Date

    public init(store: any DocumentStore, catalog: CatalogService, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.catalog = catalog
        self.now = now
    }

    /// Saves a catalog word, or a word the dictionary knows. Saving a saved word changes nothing.
    public func add(_ text: String, dictionary: DictionaryLookup? = nil) async throws -> AddResult {
        let key = SavedWord.key(text)
        guard !key.isEmpty else { throw LibraryError.emptyWord }
        if let existing = try await saved(key) { return .alreadySaved(existing) }

        let suggestions: [String]
        do {
            let words = try await catalog.lookup(text)
            // The catalog may spell it differently ("Ice Cream" → "ice cream"): keep its spelling.
            let headword = words.first?.word ?? text
            if let existing = try await saved(SavedWord.key(headword)) { return .alreadySaved(existing) }
            return .added(try await save(SavedWord(word: headword, savedAt: now(), source: .catalog)))
        } catch CatalogError.unknownWord(_, let hints) {
            suggestions = hints
        }

        let check = await dictionary?(key) ?? .unknown
        switch check {
        case .known(let headword, let partOfSpeech, let definition, let phonetic):
            let word = SavedWord(word: headword.isEmpty ? key : headword, savedAt: now(), source: .dictionary,
                                 definition: definition, partOfSpeech: partOfSpeech, phonetic: phonetic)
            return .added(try await save(word))
        case .unknown:
            throw LibraryError.unknownWord(text, suggestions: suggestions, dictionaryNote: nil)
        case .unavailable(let reason):
            throw LibraryError.unknownWord(text, suggestions: suggestions, dictionaryNote: "the dictionary could not be asked: \(reason)")
        }
    }

    /// Removes a saved word and returns what was saved.
    @discardableResult
    public func remove(_ text: String) async throws -> SavedWord {
        let key = SavedWord.key(text)
        guard let existing = try await saved(key) else { throw LibraryError.notSaved(text) }
        try await store.delete(key, in: Self.collection)
        return existing
    }

    /// Saved words, oldest first, so the list reads as the order they were learnt in.
    public func list() async throws -> [SavedWord] {
        try await store.query(Query(Self.collection).ordered(by: "savedAt").ordered(by: "word")).map { try $0.decode(SavedWord.self) }
    }

    /// Saved words with their catalog entries as the catalog has them now.
    public func entries() async throws -> [LibraryEntry] {
        var out: [LibraryEntry] = []
        for saved in try await list() {
            let words = (try? await catalog.lookup(saved.word)) ?? []
            out.append(LibraryEntry(saved: saved, catalog: words))
        }
        return out
    }

    public func contains(_ text: String) async throws -> Bool { try await saved(SavedWord.key(text)) != nil }

    private func saved(_ key: String) async throws -> SavedWord? {
        try await store.get(key, in: Self.collection)?.decode(SavedWord.self)
    }

    private func save(_ word: SavedWord) async throws -> SavedWord {
        try await store.put([Document(id: SavedWord.key(word.word), encoding: word)], in: Self.collection)
        return word
    }
}

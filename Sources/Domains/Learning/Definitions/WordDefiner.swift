import Catalog

/// A word as `vocab define` shows it: the catalog's entry, if any, and the dictionary's meanings.
public struct WordDefinition: Sendable {
    public var word: String
    public var lang: String
    /// Catalog entries with this headword (English only; empty otherwise).
    public var catalog: [Word]
    /// The dictionary's answer, live or saved; nil when it could not be had at all.
    public var remote: DefinitionResult?
    /// Why there is no dictionary answer, when `remote` is nil.
    public var remoteFailure: RemoteFailure?

    /// True when something shown is not live: a saved copy replaced a failed request, or the
    /// dictionary could not be reached and only the catalog answered.
    public var usedOfflineData: Bool { remote?.isOffline ?? (remoteFailure != nil) }
}

public enum DefineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither the dictionary (live or saved) nor the catalog knows the word.
    case noDefinition(word: String, reason: String, suggestions: [String])

    public var description: String {
        switch self {
        case .noDefinition(let word, let reason, let suggestions):
            let hint = suggestions.isEmpty ? "" : " Did you mean: \(suggestions.joined(separator: ", "))?"
            return "no definition of '\(word)': \(reason).\(hint)"
        }
    }
}

/// Puts the catalog and the remote dictionary together for one word.
public struct WordDefiner: Sendable {
    let catalog: CatalogService
    let definitions: DefinitionService

    public init(catalog: CatalogService, definitions: DefinitionService) {
        self.catalog = catalog
        self.definitions = definitions
    }

    public func define(_ text: String, lang: String = "en", refresh: Bool = false) async throws -> WordDefinition {
        var catalogWords: [Word] = []
        var suggestions: [String] = []
        if lang == "en" {
            do {
                catalogWords = try await catalog.lookup(text)
            } catch CatalogError.unknownWord(_, let hints) {
                suggestions = hints
            }
        }
        var result = WordDefinition(
            word: catalogWords.first?.word ?? text.trimmingCharacters(in: .whitespacesAndNewlines),
            lang: lang, catalog: catalogWords)
        do {
            result.remote = try await definitions.define(text, lang: lang, refresh: refresh)
        } catch DefinitionError.unavailable(_, let failure) {
            result.remoteFailure = failure
        }
        if result.catalog.isEmpty && !(result.remote?.found ?? false) {
            let reason =
                if let failure = result.remoteFailure {
                    "the dictionary is unavailable (\(failure)), nothing is saved from before, and it is not in the catalog"
                } else if result.remote?.isOffline == true {
                    "the dictionary is unavailable and had no entry when last asked; it is not in the catalog either"
                } else {
                    "the dictionary has no entry and it is not in the catalog"
                }
            throw DefineError.noDefinition(word: result.word, reason: reason, suggestions: suggestions)
        }
        return result
    }
}

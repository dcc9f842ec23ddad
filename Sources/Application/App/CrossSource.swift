import AppCore
import Catalog
import Mandarin

/// A miss in one source that is a hit in another: `vocab show 行` is not in the catalog but is
/// in the Mandarin dictionary, `vocab lookup cat` the other way round. The not-found failure
/// keeps its kind and code and gains a hint naming the command that finds it.
public struct CrossSource: Sendable {
    /// Opened only when asked: `vocab lookup` needs the catalog only for a miss.
    let catalog: @Sendable () async throws -> CatalogService
    let dictionary: any MandarinDictionary

    public init(catalog: @escaping @Sendable () async throws -> CatalogService, dictionary: any MandarinDictionary) {
        self.catalog = catalog
        self.dictionary = dictionary
    }

    public init(catalog: CatalogService, dictionary: any MandarinDictionary) {
        self.init(catalog: { catalog }, dictionary: dictionary)
    }

    /// The catalog entries for a headword; a miss that the Mandarin dictionary has says so.
    public func catalogWords(_ word: String) async throws -> [Word] {
        do {
            return try await catalog().lookup(word)
        } catch let error as CatalogError {
            guard case .unknownWord = error, await dictionary.isAvailable(),
                let found = try? await dictionary.lookup(word), let title = found.first?.title
            else { throw error }
            var failure = FailureClassifier.classify(error)
            failure.hint = "'\(Failure.quote(title))' is in the Mandarin dictionary: try 'vocab lookup \(Failure.quote(title))'."
            throw failure
        }
    }

    /// The Mandarin entries for a title; a miss that the catalog has says so.
    public func mandarinEntries(_ title: String) async throws -> [DictionaryEntry] {
        do {
            return try await dictionary.lookup(title)
        } catch let error as MOEError {
            guard case .unknownTitle = error, let word = try? await catalog().lookup(title).first?.word else { throw error }
            var failure = FailureClassifier.classify(error)
            failure.hint = "'\(Failure.quote(word))' is in the catalog: try 'vocab show \(Failure.quote(word))'."
            throw failure
        }
    }
}

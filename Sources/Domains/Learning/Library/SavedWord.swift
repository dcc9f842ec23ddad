import Catalog
import Foundation

/// A word the learner chose to keep, with when and from where.
public struct SavedWord: Codable, Sendable, Hashable {
    public enum Source: String, Codable, Sendable {
        /// The word is in the catalog; its details are read from there, so they follow catalog updates.
        case catalog
        /// Only the online dictionary knew it; what it said is kept here so it shows offline.
        case dictionary
    }

    public var word: String
    public var savedAt: Date
    public var source: Source
    /// For dictionary words: the first definition when the word was saved.
    public var definition: String?
    public var partOfSpeech: String?
    public var phonetic: String?

    public init(word: String, savedAt: Date, source: Source, definition: String? = nil,
                partOfSpeech: String? = nil, phonetic: String? = nil) {
        self.word = word
        self.savedAt = savedAt
        self.source = source
        self.definition = definition
        self.partOfSpeech = partOfSpeech
        self.phonetic = phonetic
    }

    /// The document id: one saved copy per word, whatever its capitalisation.
    static func key(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
}

/// A saved word with its current catalog entries (none for dictionary-only words).
public struct LibraryEntry: Sendable {
    public var saved: SavedWord
    public var catalog: [Word]
}

/// What the online dictionary said about a word the catalog does not have.
public enum DictionaryCheck: Sendable, Equatable {
    case known(headword: String, partOfSpeech: String?, definition: String, phonetic: String?)
    case unknown
    case unavailable(reason: String)
}

public enum AddResult: Sendable, Equatable {
    case added(SavedWord)
    case alreadySaved(SavedWord)

    public var entry: SavedWord {
        switch self {
        case .added(let w), .alreadySaved(let w): return w
        }
    }
}

public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyWord
    /// Neither the catalog nor the dictionary knows the word; `dictionaryNote` says why the
    /// dictionary could not vouch for it when it was not a plain "no entry".
    case unknownWord(String, suggestions: [String], dictionaryNote: String?)
    case notSaved(String)

    public var description: String {
        switch self {
        case .emptyWord:
            return "give a word to save."
        case .unknownWord(let word, let suggestions, let note):
            let hint = suggestions.isEmpty ? "" : " Did you mean: \(suggestions.joined(separator: ", "))?"
            let why = note.map { " (\($0))" } ?? ""
            return "'\(word)' is not in the catalog and the dictionary does not know it\(why); nothing was saved.\(hint)"
        case .notSaved(let word):
            return "'\(word)' is not in your library. 'vocab library list' shows what is."
        }
    }
}

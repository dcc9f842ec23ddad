import AppCore
import Audio
import AudioFile
import Catalog
import Definitions
import FileAccess
import Foundation
import Learners
import Mandarin
import PostgresNIO
import PostgresStore
import Quiz
import SQLiteDB
import Store

/// Every error a service can throw, as the one `Failure` both front ends report: the CLI prints
/// its description and exits with its kind's code, the server answers its kind's status with
/// a JSON body. Text a user typed is quoted with control characters escaped.
public enum FailureClassifier {
    public static func classify(_ error: any Error) -> Failure {
        known(error) ?? Failure(.internalError, code: "internal", message: String(describing: error))
    }

    /// The failure for an error vocab knows, nil for others (argument-parser's own, which it
    /// reports itself).
    public static func known(_ error: any Error) -> Failure? {
        switch error {
        case let f as Failure:
            return f
        case let e as CatalogError:
            return catalog(e)
        case let e as MOEError:
            return mandarin(e)
        case let e as LearnerError:
            switch e {
            case .unknownLearner(let name):
                return Failure(.notFound, code: "unknown_learner", message: "there is no learner '\(Failure.quote(name))'.",
                               hint: "'vocab users list' shows them.")
            case .nameTaken(let name):
                return Failure(.conflict, code: "name_taken", message: "a learner '\(Failure.quote(name))' exists already.")
            case .badName:
                return Failure(.badInput, code: "bad_name", message: e.description)
            case .unknownItem(let id):
                return Failure(.notFound, code: "unknown_item", message: "there is no item \(id) in this library.")
            case .stale(let current):
                return Failure(.conflict, code: "stale_card", message: "the card changed since it was read; it is now at version \(current.version).")
            case .nothingToUndo:
                return Failure(.notFound, code: "nothing_to_undo", message: e.description)
            }
        case let e as DefinitionError:
            return Failure(e == .emptyWord ? .badInput : .notFound, code: e == .emptyWord ? "invalid_text" : "no_definition", message: e.description)
        case let e as DefineError:
            if case .noDefinition(let word, let reason, let suggestions) = e {
                return Failure(.notFound, code: "no_definition", message: "no definition of '\(Failure.quote(word))': \(reason).", suggestions: suggestions)
            }
            return Failure(.notFound, code: "no_definition", message: e.description)
        case let e as QuizError:
            if case .noWords = e { return Failure(.notFound, code: "no_words", message: e.description) }
            return Failure(.invalidData, code: "quiz_impossible", message: e.description)
        case let e as NoClipAvailable:
            // Speech always works when it is there: a tried speech tier that failed means the
            // service cannot answer; otherwise the tiers asked for simply have no clip.
            if e.skipped.contains(where: { $0.tier == .tts }) || e.skipped.isEmpty {
                return Failure(.unavailable, code: "audio_unavailable", message: e.description)
            }
            return Failure(.notFound, code: "no_clip", message: e.description)
        case let e as AudioError:
            return Failure(.io, code: "audio_failed", message: e.description)
        case let e as MigrationError:
            return Failure(.invalidData, code: "newer_file", message: e.description)
        case let e as FileError:
            return Failure(.io, code: "io_error", message: e.description)
        case let e as SQLiteError:
            return Failure(.io, code: "database_error", message: e.description)
        case let e where e.isPostgresUnavailable:
            return Failure(.unavailable, code: "database_unavailable", message: "the database cannot be reached; try again shortly.")
        case let e as PSQLError:
            return Failure(.io, code: "database_error", message: "the database refused a statement: \(e.serverInfo?[.message] ?? "\(e.code)").")
        case let e as PostgresStoreError:
            switch e.kind {
            case .badURL: return Failure(.badInput, code: "bad_database_url", message: e.description)
            case .newerSchema: return Failure(.invalidData, code: "newer_database", message: e.description)
            case .unavailable, .other: return Failure(.io, code: "database_error", message: e.description)
            }
        case let e as CocoaError where e.code == .fileReadNoSuchFile || e.code == .fileNoSuchFile:
            return Failure(.missingInput, code: "missing_file", message: e.localizedDescription)
        default:
            return nil
        }
    }

    static func catalog(_ e: CatalogError) -> Failure {
        switch e {
        case .badLevel(let text):
            return Failure(.badInput, code: "bad_level", message: "'\(Failure.quote(text))' is not a level; use one of starters, movers, flyers.",
                           suggestions: InputRules.closestOrAll(text, Level.allCases.map(\.rawValue)))
        case .unknownCategory(let name, let suggestions):
            return Failure(.notFound, code: "unknown_category", message: "unknown category '\(Failure.quote(name))'.",
                           suggestions: suggestions, hint: "Run 'vocab categories' for the list.")
        case .unknownWord(let word, let suggestions):
            return Failure(.notFound, code: "unknown_word", message: "'\(Failure.quote(word))' is not in the catalog.", suggestions: suggestions)
        case .invalidData:
            return Failure(.invalidData, code: "invalid_catalog", message: e.description, hint: "\nRun 'vocab validate' for the full list.")
        case .missingCategories:
            return Failure(.missingInput, code: "missing_categories", message: e.description)
        }
    }

    static func mandarin(_ e: MOEError) -> Failure {
        switch e {
        case .unknownTitle(let title, let suggestions):
            return Failure(.notFound, code: "unknown_title", message: "'\(Failure.quote(title))' is not in the dictionary.", suggestions: suggestions)
        case .notImported, .notPushed:
            return Failure(.missingInput, code: "dictionary_not_imported", message: e.description)
        case .invalidJSON, .unexpectedShape, .incompatibleDatabase:
            return Failure(.invalidData, code: "invalid_dictionary", message: e.description)
        case .sourceMissing:
            return Failure(.missingInput, code: "missing_file", message: e.description)
        case .unreadableSource, .writeFailed:
            return Failure(.io, code: "io_error", message: e.description)
        case .noEntries:
            return Failure(.invalidData, code: "empty_dictionary", message: e.description, hint: "Add --force to import it anyway.")
        case .wouldShrink:
            return Failure(.invalidData, code: "dictionary_would_shrink", message: e.description, hint: "Add --force to replace it anyway.")
        }
    }
}

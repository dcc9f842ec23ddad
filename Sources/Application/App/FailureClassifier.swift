import AppCore
import Audio
import AudioFile
import Catalog
import Classes
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
        known(error) ?? Failure(.internal, String(describing: error))
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
        case let e as ClassError:
            return classes(e)
        case let e as LearnerError:
            switch e {
            case .unknownLearner(let name):
                return .unknownLearner(name)
            case .nameTaken(let name):
                return Failure(.nameTaken, "a learner '\(Failure.quote(name))' exists already.")
            case .badName, .reservedName:
                return Failure(.badName, e.description)
            case .unknownItem(let id):
                return .unknownItem(id)
            case .stale(let current):
                return .staleCard(current.version)
            case .nothingToUndo:
                return .nothingToUndo
            }
        case let e as DefinitionError:
            return Failure(e == .emptyWord ? .invalidText : .noDefinition, e.description)
        case let e as DefineError:
            if case .noDefinition(let word, let reason, let suggestions) = e {
                return Failure(.noDefinition, "no definition of '\(Failure.quote(word))': \(reason).", suggestions: suggestions)
            }
            return Failure(.noDefinition, e.description)
        case let e as QuizError:
            if case .noWords = e { return Failure(.noWords, e.description) }
            return Failure(.quizImpossible, e.description)
        case let e as NoClipAvailable:
            // Speech always works when it is there: a tried speech tier that failed means the
            // service cannot answer; otherwise the tiers asked for simply have no clip.
            if e.skipped.contains(where: { $0.tier == .tts }) || e.skipped.isEmpty {
                return Failure(.audioUnavailable, e.description)
            }
            return Failure(.noClip, e.description)
        case AudioError.noSpace:
            return .diskFull
        case let e as AudioError:
            return Failure(.audioFailed, e.description)
        case let e as MigrationError:
            return Failure(.newerFile, e.description)
        case let e as FileError where e.isDiskFull:
            return .diskFull
        case let e as FileError:
            return Failure(.ioError, e.description)
        case let e as SQLiteError where e.isDiskFull:
            return .diskFull
        case let e as SQLiteError:
            return Failure(.databaseError, e.description)
        case let e where e.isPostgresUnavailable:
            return Failure(.databaseUnavailable, "the database cannot be reached; try again shortly.")
        case let e as PSQLError:
            return Failure(.databaseError, "the database refused a statement: \(e.serverInfo?[.message] ?? "\(e.code)").")
        case let e as PostgresStoreError:
            switch e.kind {
            case .badURL: return Failure(.badDatabaseURL, e.description)
            case .newerSchema: return Failure(.newerDatabase, e.description)
            case .unavailable, .other: return Failure(.databaseError, e.description)
            }
        case let e as CocoaError where e.code == .fileReadNoSuchFile || e.code == .fileNoSuchFile:
            return Failure(.missingFile, e.localizedDescription)
        default:
            return nil
        }
    }

    static func catalog(_ e: CatalogError) -> Failure {
        switch e {
        case .badLevel(let text):
            return .badLevel(text, valid: Level.allCases.map(\.rawValue))
        case .unknownCategory(let name, let suggestions):
            return Failure(
                .unknownCategory, "unknown category '\(Failure.quote(name))'.",
                suggestions: suggestions, hint: "Run 'vocab categories' for the list.")
        case .unknownWord(let word, let suggestions):
            return Failure(.unknownWord, "'\(Failure.quote(word))' is not in the catalog.", suggestions: suggestions)
        case .invalidData:
            return Failure(.invalidCatalog, e.description, hint: "\nRun 'vocab validate' for the full list.")
        case .missingCategories:
            return Failure(.missingCategories, e.description)
        }
    }

    static func classes(_ e: ClassError) -> Failure {
        switch e {
        case .unknownClass: Failure(.unknownClass, e.description)
        case .adultsOnly: Failure(.adultsOnly, e.description)
        case .unknownChild: Failure(.unknownChild, e.description)
        case .unknownAssignment: Failure(.unknownAssignment, e.description)
        case .childNameTaken: Failure(.childNameTaken, e.description)
        case .childShared: Failure(.childShared, e.description)
        case .badName: Failure(.badName, e.description)
        case .badPictures: Failure(.badPictures, e.description)
        case .tooMany: Failure(.tooMany, e.description)
        case .signInLocked: Failure(.signInLocked, e.description)
        case .notCreator: Failure(.notCreator, e.description)
        case .badInvitation: Failure(.badInvitation, e.description)
        }
    }

    static func mandarin(_ e: MOEError) -> Failure {
        switch e {
        case .unknownTitle(let title, let suggestions):
            return Failure(.unknownTitle, "'\(Failure.quote(title))' is not in the dictionary.", suggestions: suggestions)
        // The command and the server's path help a person at its terminal, not an HTTP client.
        case .notImported(let database):
            return Failure(
                .dictionaryNotImported, "the Mandarin dictionary has not been imported yet.",
                hint: "Run 'vocab import moe PATH' with the path of dict-revised.json first (no \(database)).")
        case .notPushed:
            return Failure(
                .dictionaryNotImported, "the Mandarin dictionary has not been pushed to this database yet.",
                hint: "Run 'vocab import moe PATH', then 'vocab db push'.")
        case .invalidJSON, .unexpectedShape, .incompatibleDatabase:
            return Failure(.invalidDictionary, e.description)
        case .sourceMissing:
            return Failure(.missingFile, e.description)
        case .unreadableSource, .writeFailed:
            return Failure(.ioError, e.description)
        case .noSpace:
            return Failure(
                .diskFull, "the disk is full, so nothing was imported; the previous dictionary, if any, is unchanged. Try again once there is space.")
        case .noEntries:
            return Failure(.emptyImport, e.description, hint: "Add --force to import it anyway.")
        case .wouldShrink:
            return Failure(.dictionaryWouldShrink, e.description, hint: "Add --force to replace it anyway.")
        }
    }
}

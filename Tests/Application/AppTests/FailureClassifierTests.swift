import App
import AppCore
import Audio
import Catalog
import FileAccess
import Foundation
import Learners
import Mandarin
import SQLiteDB
import Testing

@Suite("Every error becomes one failure: the same exit code and HTTP status in both front ends")
struct FailureClassifierTests {
    @Test("each kind has one exit code and one HTTP status")
    func kinds() {
        let expected: [Failure.Kind: (Int32, Int)] = [
            .notFound: (1, 404), .badInput: (64, 400), .invalidData: (65, 500), .missingInput: (66, 404), .unavailable: (69, 503),
            .conflict: (75, 409), .unauthorized: (77, 401), .tooManyRequests: (75, 429), .uriTooLong: (64, 414), .io: (74, 500),
            .internalError: (70, 500), .forbidden: (77, 403), .methodNotAllowed: (64, 405), .unsupportedMediaType: (64, 415),
            .temporary: (75, 503),
        ]
        for kind in Failure.Kind.allCases {
            #expect(kind.exitCode == expected[kind]?.0 && kind.httpStatus == expected[kind]?.1, "\(kind)")
        }
    }

    @Test("domain errors map to their kind and a stable code, quoting user text safely")
    func domainErrors() {
        let cases: [(any Error, Failure.Kind, String)] = [
            (CatalogError.unknownWord("ca\u{1B}t", suggestions: ["cat"]), .notFound, "unknown_word"),
            (CatalogError.unknownCategory("animl", suggestions: ["animals"]), .notFound, "unknown_category"),
            (CatalogError.badLevel("flyer"), .badInput, "bad_level"),
            (CatalogError.invalidData([]), .invalidData, "invalid_catalog"),
            (CatalogError.missingCategories("/x"), .missingInput, "missing_categories"),
            (MOEError.unknownTitle("行行行", suggestions: []), .notFound, "unknown_title"),
            (MOEError.notImported(database: "/x"), .missingInput, "dictionary_not_imported"),
            (LearnerError.nameTaken("anna"), .conflict, "name_taken"),
            (LearnerError.unknownItem(3), .notFound, "unknown_item"),
            (NoClipAvailable(word: "cat", skipped: [TierSkip(tier: .recorded, reason: "none")]), .notFound, "no_clip"),
            (NoClipAvailable(word: "cat", skipped: [TierSkip(tier: .tts, reason: "no espeak")]), .unavailable, "audio_unavailable"),
            (MigrationError.newer(file: "user.sqlite", version: 9, known: 2), .invalidData, "newer_file"),
            (FileError("cannot read /x: Permission denied", code: EACCES), .io, "io_error"),
            // A full disk in any of the forms it takes: SQLite out of pages, the log's index
            // unable to grow (an I/O error with ENOSPC behind it), a file that cannot be written.
            (SQLiteError(code: 13, message: "database or disk is full", sql: "COMMIT"), .temporary, "disk_full"),
            (SQLiteError(code: 10, message: "disk I/O error", sql: "PRAGMA journal_mode=WAL", systemErrno: ENOSPC), .temporary, "disk_full"),
            (SQLiteError(code: 10, message: "disk I/O error", sql: nil, systemErrno: EIO), .io, "database_error"),
            (FileError("cannot write /x: No space left on device", code: ENOSPC), .temporary, "disk_full"),
        ]
        for (error, kind, code) in cases {
            let failure = FailureClassifier.classify(error)
            #expect(failure.kind == kind && failure.code.rawValue == code, "\(error) → \(failure)")
            #expect(!failure.description.unicodeScalars.contains { $0.value == 0x1B }, "no raw escape in \(failure.description)")
        }
        // What an HTTP body carries (the message, never the hint) names no server path and no command.
        for error in [MOEError.notImported(database: "/srv/vocab/moe.sqlite"), .notPushed(database: "postgres://db/vocab")] {
            let failure = FailureClassifier.classify(error)
            #expect(!failure.message.contains("/") && !failure.message.contains("vocab "), "\(failure.message)")
            #expect(failure.description.contains("vocab import moe PATH"), "the terminal still says what to run")
        }
        struct Unknown: Error {}
        #expect(FailureClassifier.known(Unknown()) == nil)
        #expect(FailureClassifier.classify(Unknown()).kind == .internalError)
    }

    @Test("CLI messages keep their hints; HTTP bodies are the message without them")
    func hints() {
        let failure = FailureClassifier.classify(CatalogError.unknownCategory("animl", suggestions: ["animals"]))
        #expect(failure.description == "unknown category 'animl'. Did you mean: animals? Run 'vocab categories' for the list.")
        #expect(failure.message == "unknown category 'animl'.")
    }

    /// Text a user typed comes back in messages; a terminal must never receive its control
    /// characters as they are (ESC would start an escape sequence).
    @Test func userTextInEveryCatalogMessageIsQuoted() {
        let typed = "ca\u{1B}[31mt\u{07}\r"
        let errors: [any Error] = [
            CatalogError.badLevel(typed), CatalogError.unknownCategory(typed, suggestions: []),
            CatalogError.unknownWord(typed, suggestions: []),
        ]
        for error in errors {
            let failure = FailureClassifier.classify(error)
            #expect(!failure.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(error)")
            #expect(failure.description.contains("ca\\u{1B}[31mt"), "\(failure.description)")
        }
    }
}

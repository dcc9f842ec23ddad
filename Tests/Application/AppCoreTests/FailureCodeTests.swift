import AppCore
import Foundation
import TestSupport
import Testing

/// Failure codes are one enumeration: a code's kind fixes its exit code and HTTP status, and no
/// source file spells a code as a string of its own.
@Suite("Failure codes: one list, each with one kind, named and never spelled outside AppCore")
struct FailureCodeTests {
    @Test("no source outside FailureCode.swift spells a failure code as a string")
    func noLiterals() throws {
        let sources = Repository.root + "/Sources"
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources).filter { $0.hasSuffix(".swift") && !$0.hasSuffix("AppCore/FailureCode.swift") }
        #expect(files.count > 100)
        // Codes with an underscore only: "internal" and "unauthorized" are ordinary words too.
        let codes = FailureCode.allCases.map(\.rawValue).filter { $0.contains("_") }
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            if text.contains("code: \"") { found.append("\(file): code: \"…\"") }
            for code in codes where text.contains("\"\(code)\"") { found.append("\(file): \"\(code)\"") }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the exit-code table of --help and docs/reference.md names every code a command can end with, once, in order")
    func exitCodeTable() {
        let table = Failure.exitCodes
        let shown = table.matches(of: #/(?:^Exit codes: |, )(\d+) /#).map { Int32($0.1)! }
        let commandCodes = Set(Failure.Kind.allCases.filter { $0.commandMeaning != nil }.map(\.exitCode))
        #expect(shown == [0] + commandCodes.sorted(), "\(table)")
        #expect(table.contains("75 a conflict") && table.contains("77 no valid credentials or not allowed"), "\(table)")
    }

    @Test(
        "a code decides its kind, and so the exit code and the HTTP status",
        arguments: [
            (FailureCode.unknownWord, Int32(1), 404), (.badLevel, 64, 400), (.staleCard, 75, 409), (.unauthorized, 77, 401),
            (.csrfTokenMissing, 77, 403), (.methodNotAllowed, 64, 405), (.jsonOnly, 64, 415), (.databaseUnavailable, 69, 503),
            (.dictionaryNotImported, 66, 404), (.invalidCatalog, 65, 500), (.tooManyAttempts, 75, 429), (.diskFull, 75, 503),
        ])
    func kinds(code: FailureCode, exit: Int32, status: Int) {
        let failure = Failure(code, "m")
        #expect(failure.exitCode == exit && failure.httpStatus == status)
    }

    @Test("a code made in several places has one message")
    func oneMessage() {
        #expect(Failure.unknownItem(3).message == "there is no item 3 in this library.")
        #expect(Failure.invalidText("word", .empty).message == "the word is empty.")
        #expect(Failure.badLevel("flyer", valid: ["starters", "movers", "flyers"]).suggestions == ["flyers"])
    }
}

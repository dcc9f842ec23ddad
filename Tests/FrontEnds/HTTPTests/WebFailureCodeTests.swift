import AppCore
import Foundation
import TestSupport
import Testing

/// The web app turns the server's failure codes into kind words of its own: every code it names
/// is one the server can send, and every word it shows for one exists in both languages.
@Suite("the web app names only failure codes the server has")
struct WebFailureCodeTests {
    static let web = Repository.root + "/Sources/FrontEnds/WebApp/Web"

    static func source(_ file: String) throws -> String { try String(contentsOfFile: web + "/" + file, encoding: .utf8) }

    /// Codes compared with `code === "…"` anywhere, and the keys of each code → message table
    /// (`const keys = { code: "i18n.key", … }`), with the message key each maps to.
    static func namedCodes() throws -> (compared: [String], table: [(code: String, message: String)]) {
        var compared: [String] = []
        var table: [(String, String)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: web) where file.hasSuffix(".js") {
            let text = try source(file)
            for match in text.matches(of: /code\s*[!=]==?\s*"([a-z_]+)"/) { compared.append(String(match.1)) }
            for block in text.matches(of: /const keys = \{([^}]*)\}/) {
                for pair in String(block.1).matches(of: /([a-z_]+):\s*"([\w.]+)"/) { table.append((String(pair.1), String(pair.2))) }
            }
        }
        return (compared, table)
    }

    @Test("every code the web app compares or translates is a FailureCode")
    func codesExist() throws {
        let (compared, table) = try Self.namedCodes()
        #expect(table.count >= 5, "the class pages' table was found: \(table)")
        #expect(compared.contains("sign_in_locked"))
        let known = Set(FailureCode.allCases.map(\.rawValue))
        let unknown = (compared + table.map(\.code)).filter { !known.contains($0) }
        #expect(unknown.isEmpty, "codes the server never sends: \(unknown)")
    }

    @Test("every message a code maps to is written in English and in Vietnamese")
    func messagesInBothLanguages() throws {
        let strings = try Self.source("i18n.js")
        let (_, table) = try Self.namedCodes()
        for (code, message) in table {
            let times = strings.matches(of: try Regex("\"\(NSRegularExpression.escapedPattern(for: message))\":")).count
            #expect(times == 2, "\(code) → \(message) appears \(times) times in i18n.js")
        }
    }

    @Test("a class page words a code itself only where it says more than every page's words for it")
    func tableSaysMore() throws {
        let strings = try Self.source("i18n.js")
        func english(_ key: String) throws -> String? {
            let pattern = try Regex("\"\(NSRegularExpression.escapedPattern(for: key))\": \"([^\"]*)\"")
            return (strings.firstMatch(of: pattern)?.output[1].substring).map(String.init)
        }
        for (code, message) in try Self.namedCodes().table {
            let own = try english(message)
            let general = try english("failure." + code)
            #expect(own != nil && own != general, "\(message) repeats failure.\(code)")
        }
    }

    /// The failures the web app words by their code (`"failure.<code>"` in i18n.js), with how
    /// many times each appears (once per language).
    static func wordedCodes() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for match in try source("i18n.js").matches(of: /"failure\.([a-z_]+)":/) where match.1 != "other" { counts[String(match.1), default: 0] += 1 }
        return counts
    }

    @Test("the failures the web app words by code are codes the server sends, each in both languages")
    func wordedByCode() throws {
        let worded = try Self.wordedCodes()
        #expect(worded.count >= 30, "the table was found: \(worded.keys.sorted())")
        let served = Set(FailureCode.allCases.filter(\.reachesHTTP).map(\.rawValue))
        #expect(Set(worded.keys).subtracting(served).isEmpty, "worded but never sent over HTTP: \(Set(worded.keys).subtracting(served).sorted())")
        #expect(worded.filter { $0.value != 2 }.isEmpty, "not in both languages: \(worded.filter { $0.value != 2 })")
        for code in ["unknown_entry", "unauthorized", "too_many_attempts", "sign_in_locked", "disk_full", "internal"] {
            #expect(worded[code] == 2, "\(code) has words of its own")
        }
    }

    @Test("every HTTP status a failure can have is worded in both languages, for the codes without words of their own")
    func wordedByStatus() throws {
        let strings = try Self.source("i18n.js")
        let statuses = Set(FailureCode.allCases.filter(\.reachesHTTP).map(\.kind.httpStatus))
        for status in statuses.sorted() {
            #expect(strings.matches(of: try Regex("\"failure\\.status\\.\(status)\":")).count == 2, "failure.status.\(status)")
        }
        #expect(strings.matches(of: /"failure\.other":/).count == 2)
    }

    @Test("no page shows the server's own message: a refusal is worded by failureText")
    func noServerMessages() throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.web) where file.hasSuffix(".js") {
            let shown = try Self.source(file).split(separator: "\n").filter { $0.contains(".message") && !$0.contains("super(body?.error?.message") }
            #expect(shown.isEmpty, "\(file) shows an error's message: \(shown)")
        }
    }
}

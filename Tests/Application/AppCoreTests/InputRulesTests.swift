import AppCore
import Catalog
import Testing

@Suite("Input rules shared by the command line and HTTP")
struct InputRulesTests {
    @Test("text: trimmed; empty, control characters, bidi controls, paths and over-long text refused")
    func text() throws {
        #expect(try InputRules.text("  cat ", name: "word") == "cat")
        #expect(throws: Failure.self) { try InputRules.text("a\u{0}b", name: "word") }
        #expect(throws: Failure.self) { try InputRules.text("\tcat", name: "q", pathSafe: false) }
        #expect(throws: Failure.self) { try InputRules.text("x\u{202E}y", name: "word") }
        #expect(throws: Failure.self) { try InputRules.text("a/b", name: "word") }
        #expect(throws: Failure.self) { try InputRules.text("..", name: "word") }
        #expect(throws: Failure.self) { try InputRules.text("", name: "word") }
        #expect(try InputRules.text("as ... as", name: "word") == "as ... as") // a word, not a path
        #expect(try InputRules.text("a/b", name: "q", pathSafe: false) == "a/b")
        #expect(try InputRules.text("👩‍👩‍👧", name: "word") == "👩‍👩‍👧") // joiners are not controls
        #expect(throws: Failure.self) { try InputRules.text(String(repeating: "x", count: 101), name: "word") }
        #expect(throws: Failure.self) { try InputRules.text(String(repeating: "e\u{301}", count: 51), name: "word") } // 102 code points
        #expect(throws: Failure.self) { try InputRules.text(String(repeating: " ", count: 99) + "ab", name: "word") }
    }

    @Test("trimming takes Unicode spaces only: a tab is left for the checks to refuse")
    func trimming() {
        #expect(InputRules.trimmingSpaces("  cat ") == "cat")
        #expect(InputRules.trimmingSpaces("\tcat") == "\tcat")
        #expect(InputRules.trimmingSpaces("\u{3000}cat\u{00A0}") == "cat")
        #expect(InputRules.trimmingSpaces("   ") == "")
        #expect(InputRules.trimmingSpaces("ice cream") == "ice cream")
    }

    @Test("numbers within a range; the failure is bad input")
    func numbers() throws {
        #expect(try InputRules.integer(" 7 ", name: "limit", range: 1...10) == 7)
        #expect(try InputRules.bounded(10, name: "limit", range: 1...10) == 10)
        do {
            _ = try InputRules.integer("11", name: "limit", range: 1...10)
            Issue.record("no error")
        } catch {
            #expect(error.code == .outOfRange)
            #expect(error.exitCode == 64 && error.httpStatus == 400)
        }
        #expect(throws: Failure.self) { try InputRules.integer("x", name: "limit", range: 1...10) }
    }

    @Test("levels in any case, with the closest valid level suggested")
    func levels() throws {
        #expect(try InputRules.level("movers") == .movers)
        #expect(try InputRules.level("MOVERS") == .movers)
        do {
            _ = try InputRules.level("flyer")
            Issue.record("no error")
        } catch {
            #expect(error.code == .badLevel)
            #expect(error.suggestions == ["flyers"])
        }
    }

    @Test("accents by name or alias, in any case")
    func accents() throws {
        for (text, accent) in [
            ("british", Accent.british), ("UK", .british), ("gb", .british), ("en-GB", .british),
            ("american", .american), ("us", .american), ("en-us", .american),
        ] {
            #expect(try InputRules.accent(text) == accent)
        }
        #expect(throws: Failure.self) { try InputRules.accent("australian") }
    }

    @Test("a quoted input never carries a control character to a terminal or a log")
    func quoting() {
        #expect(Failure.quote("ca\u{1B}[31mt") == "ca\\u{1B}[31mt")
        #expect(Failure.quote("bell\u{7}\r") == "bell\\u{7}\\u{D}")
        #expect(Failure.quote(String(repeating: "x", count: 50)) == String(repeating: "x", count: 40) + "…")
    }
}

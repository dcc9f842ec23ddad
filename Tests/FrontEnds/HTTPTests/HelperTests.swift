import Testing
@testable import HTTPAPI

@Suite("vocab serve: request-path helpers")
struct HelperTests {
    @Test("percent-decoding: escapes, plus as space, malformed and non-UTF-8 refused")
    func percentDecoding() {
        #expect(TextScanning.percentDecode("ice%20cream") == "ice cream")
        #expect(TextScanning.percentDecode("ice+cream") == "ice+cream")
        #expect(TextScanning.percentDecode("ice+cream", plusAsSpace: true) == "ice cream")
        #expect(TextScanning.percentDecode("m%C3%A8o") == "mèo")
        #expect(TextScanning.percentDecode("%2e%2E") == "..")
        #expect(TextScanning.percentDecode("%") == nil)
        #expect(TextScanning.percentDecode("%4") == nil)
        #expect(TextScanning.percentDecode("%zz") == nil)
        #expect(TextScanning.percentDecode("%FF") == nil)
        #expect(TextScanning.percentDecode("%C3%28") == nil)
        #expect(TextScanning.percentDecode("plain") == "plain")
    }

    @Test("trimming and byte search")
    func scanning() {
        #expect(TextScanning.trimmingSpaces("  cat ") == "cat")
        #expect(TextScanning.trimmingSpaces("\tcat") == "\tcat")
        #expect(TextScanning.trimmingSpaces("\u{3000}cat\u{00A0}") == "cat")
        #expect(TextScanning.trimmingSpaces("   ") == "")
        #expect(TextScanning.trimmingSpaces("ice cream") == "ice cream")
        #expect(TextScanning.contains("a..b", ascii: ".."))
        #expect(!TextScanning.contains("a.b.c", ascii: ".."))
        #expect(!TextScanning.contains("", ascii: "."))
        #expect(TextScanning.hasDotSegment("/v1/words/.."))
        #expect(TextScanning.hasDotSegment("/./x"))
        #expect(!TextScanning.hasDotSegment("/v1/words/a.b"))
        #expect(!TextScanning.hasDotSegment("/v1/words/..."))
    }

    @Test("input rules: text, numbers, levels")
    func rules() throws {
        #expect(try InputRules.text("  cat ", name: "word") == "cat")
        #expect(throws: APIError.self) { try InputRules.text("a\u{0}b", name: "word") }
        #expect(throws: APIError.self) { try InputRules.text("\tcat", name: "q", pathSafe: false) }
        #expect(throws: APIError.self) { try InputRules.text("x\u{202E}y", name: "word") }
        #expect(throws: APIError.self) { try InputRules.text("a/b", name: "word") }
        #expect(try InputRules.text("a/b", name: "q", pathSafe: false) == "a/b")
        #expect(try InputRules.text("👩‍👩‍👧", name: "word") == "👩‍👩‍👧")   // joiners are not controls
        #expect(throws: APIError.self) { try InputRules.text(String(repeating: "x", count: 101), name: "word") }
        #expect(try InputRules.integer(nil, name: "limit", range: 1...10, default: 5) == 5)
        #expect(try InputRules.integer(" 7 ", name: "limit", range: 1...10, default: 5) == 7)
        #expect(throws: APIError.self) { try InputRules.integer("11", name: "limit", range: 1...10, default: 5) }
        #expect(try InputRules.level("movers") == .movers)
        #expect(throws: APIError.self) { try InputRules.level("MOVERS") }
        #expect(throws: APIError.self) { try InputRules.text(String(repeating: "e\u{301}", count: 51), name: "word") }   // 102 code points
        #expect(throws: APIError.self) { try InputRules.text(String(repeating: " ", count: 99) + "ab", name: "word") }
        do {
            _ = try InputRules.level("flyer")
            Issue.record("no error")
        } catch let e as APIError {
            #expect(e.code == "bad_level")
            #expect(e.suggestions == ["flyers"])
        }
    }

    @Test("query strings decode as forms; a repeated name is refused")
    func query() throws {
        let q = QueryParameters("q=ice+cream&limit=5&q=other&flag&x=%E2%9C%93&=empty&bad=%G1")
        #expect(throws: APIError.self) { try q["q"] }
        #expect(try q["limit"] == "5")
        #expect(try q["flag"] == "")
        #expect(try q["x"] == "✓")
        #expect(try q["bad"] == "%G1")
        #expect(try q["missing"] == nil)
        #expect(try QueryParameters("q=ice+cream")["q"] == "ice cream")
        #expect(try QueryParameters(nil)["q"] == nil)
    }

    @Test("ETag matching and Accept-Encoding")
    func negotiation() {
        #expect(ETag.matches("\"abc\"", tag: "abc"))
        #expect(ETag.matches("W/\"abc\"", tag: "abc"))
        #expect(ETag.matches("\"x\", \"abc-gz\"", tag: "abc"))
        #expect(ETag.matches("*", tag: "abc"))
        #expect(!ETag.matches("abc", tag: "abc"))
        #expect(!ETag.matches("\"abcd\"", tag: "abc"))
        #expect(!ETag.matches("", tag: "abc"))
        #expect(ETag.hash([]).count == 16)
        #expect(ContentNegotiation.acceptsGzip("gzip"))
        #expect(ContentNegotiation.acceptsGzip("br, gzip;q=0.5"))
        #expect(ContentNegotiation.acceptsGzip("*"))
        #expect(!ContentNegotiation.acceptsGzip("gzip;q=0"))
        #expect(!ContentNegotiation.acceptsGzip("gzip;q=0, *"))
        #expect(!ContentNegotiation.acceptsGzip(nil))
        #expect(!ContentNegotiation.acceptsGzip("identity"))
    }

    @Test("log values stay on one line")
    func logValues() {
        #expect(LogfmtLogHandler.value("/v1/words/cat") == "/v1/words/cat")
        #expect(LogfmtLogHandler.value("a b") == "\"a b\"")
        #expect(LogfmtLogHandler.value("line\nbreak\"q\"") == "\"line\\nbreak\\\"q\\\"\"")
        #expect(LogfmtLogHandler.value("\u{1B}[31m") == "\"\\u001B[31m\"")
        #expect(LogfmtLogHandler.value("") == "\"\"")
        #expect(LogfmtLogHandler.milliseconds(.microseconds(412)) == "0.412")
        #expect(LogfmtLogHandler.milliseconds(.milliseconds(12) + .microseconds(5)) == "12.005")
        let ts = LogfmtLogHandler.timestamp()
        #expect(ts.count == 24 && ts.hasSuffix("Z") && ts.dropFirst(10).hasPrefix("T"))
    }
}

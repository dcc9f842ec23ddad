import Testing
import TextMatching

@testable import HTTPTransport

@Suite("HTTP transport: request-path helpers")
struct TransportHelperTests {
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

    @Test("byte search and dot segments")
    func scanning() {
        #expect("a..b".containsBytes(".."))
        #expect(!"a.b.c".containsBytes(".."))
        #expect(!"".containsBytes("."))
        #expect(TextScanning.hasDotSegment("/v1/words/.."))
        #expect(TextScanning.hasDotSegment("/./x"))
        #expect(!TextScanning.hasDotSegment("/v1/words/a.b"))
        #expect(!TextScanning.hasDotSegment("/v1/words/..."))
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
        // Printable ASCII takes a shorter road: the same quoting.
        #expect(LogfmtLogHandler.value("level=starters&limit=5") == "\"level=starters&limit=5\"")
        #expect(LogfmtLogHandler.value(#"a"b\c d"#) == #""a\"b\\c d""#)
        #expect(LogfmtLogHandler.value("\u{7F}") == "\"\\u007F\"")
        #expect(LogfmtLogHandler.value("mèo \"x\"") == "\"mèo \\\"x\\\"\"")
        #expect(LogfmtLogHandler.milliseconds(.microseconds(412)) == "0.412")
        #expect(LogfmtLogHandler.milliseconds(.milliseconds(12) + .microseconds(5)) == "12.005")
        let ts = LogfmtLogHandler.timestamp()
        #expect(ts.count == 24 && ts.hasSuffix("Z") && ts.dropFirst(10).hasPrefix("T"))
    }
}

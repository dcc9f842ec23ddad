import Testing

@testable import HTTPTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A log line written as bytes says what the C library and the older string code said.
@Suite("A log line's bytes")
struct LogLineTests {
    func timestamp(_ seconds: Int, _ milliseconds: Int) -> String {
        var line = LogLine(capacity: 24)
        line.appendTimestamp(seconds: seconds, milliseconds: milliseconds)
        return line.string
    }

    /// The same instant as glibc's gmtime_r puts it.
    func expected(_ seconds: Int, _ milliseconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int32, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }

    @Test("the time of a line is gmtime_r's, at the turns of days, months, leap years and centuries and at 5,000 random seconds")
    func timestampsAreUTC() {
        let turns = [
            0, 59, 86_399, 86_400, 951_782_399, 951_782_400, 951_868_800, // 2000-02-28/29, 03-01
            4_107_542_399, 4_107_542_400, // 2100-02-28 -> 03-01: no 29th
            1_798_761_599, 1_798_761_600, // 2026-12-31 -> 2027-01-01
        ]
        var generator = SystemRandomNumberGenerator()
        let random = (0..<5_000).map { _ in Int.random(in: 0...4_102_444_800, using: &generator) }
        for seconds in turns + random {
            let ms = seconds % 1000
            #expect(timestamp(seconds, ms) == expected(seconds, ms), "\(seconds)")
        }
        #expect(timestamp(1_779_271_872, 345) == "2026-05-20T10:11:12.345Z")
    }

    @Test("numbers are written with the digits and the leading zeros asked for")
    func numbers() {
        var line = LogLine(capacity: 64)
        for (n, width) in [(0, 1), (7, 3), (42, 2), (1234, 2), (-5, 1), (Int.max, 1), (100_000, 1)] {
            line.appendNumber(n, width: width)
            line.append(" ")
        }
        #expect(line.string == "0 007 42 1234 -5 \(Int.max) 100000 ")
    }

    @Test("a value quoted byte by byte reads as the Unicode-aware quoting would write it")
    func valuesAsScalarQuoting() {
        for text in ["/v1/words/cat", "a b", "q=\"a b\"", #"back\slash"#, "", "=", "x y z", "tab\there", "mèo", "\u{7F}", "a\u{2028}b"] {
            let quoted = LogfmtLogHandler.value(text)
            let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"\"=\\".unicodeScalars.contains($0) }
            #expect(quoted == (plain ? text : LogfmtLogHandler.quotedScalars(text)), "\(text)")
        }
    }
}

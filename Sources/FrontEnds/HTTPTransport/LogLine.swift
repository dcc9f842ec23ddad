import CivilDate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A log line built as bytes, made into one string at the end. Every request writes one: built
/// with string interpolation, its timestamp alone took 9,000 instructions and the whole line
/// 63,000 (callgrind, release build), more than the page it logged.
struct LogLine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A logfmt value: bare when it is safe, else quoted with quotes, backslashes and control
    /// characters escaped, so that a request path can never start a new log line.
    mutating func appendValue(_ text: String) {
        var text = text
        let done = text.withUTF8 { utf8 -> Bool in
            var plain = !utf8.isEmpty
            for b in utf8 {
                // Not printable ASCII (a control character, or not ASCII): the slow road below.
                if b < 0x20 || b >= 0x7F { return false }
                if b == 0x20 || b == Self.quote || b == Self.equals || b == Self.backslash { plain = false }
            }
            if plain {
                bytes.append(contentsOf: utf8)
                return true
            }
            bytes.append(Self.quote)
            for b in utf8 {
                if b == Self.quote || b == Self.backslash { bytes.append(Self.backslash) }
                bytes.append(b)
            }
            bytes.append(Self.quote)
            return true
        }
        if !done { appendText(LogfmtLogHandler.quotedScalars(text)) }
    }

    /// ` key=value`, the value as `appendValue` writes it.
    mutating func appendField(_ key: String, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        appendText(key)
        bytes.append(UInt8(ascii: "="))
        appendValue(value)
    }

    /// `n` in decimal, with leading zeros to `width` digits.
    mutating func appendNumber(_ n: Int, width: Int = 1) {
        // Magnitude: Int.min has none as an Int.
        var magnitude = n.magnitude
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits = 1
        var divisor: UInt = 1
        while magnitude / divisor >= 10 {
            digits += 1
            divisor *= 10
        }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// UTC with milliseconds, "2026-05-20T10:11:12.345Z", from seconds since 1970.
    mutating func appendTimestamp(seconds: Int, milliseconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        let (year, month, day) = CivilDate.of(day: days)
        appendNumber(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendNumber(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendNumber(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendNumber(second / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendNumber(second / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendNumber(second % 60, width: 2)
        bytes.append(UInt8(ascii: "."))
        appendNumber(milliseconds, width: 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Now, as `appendTimestamp(seconds:milliseconds:)` writes it.
    mutating func appendTimestamp() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        appendTimestamp(seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec) / 1_000_000)
    }

    /// Milliseconds with three decimals, "0.412".
    mutating func appendMilliseconds(_ duration: Duration) {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        appendNumber(Int(micros / 1000))
        bytes.append(UInt8(ascii: "."))
        appendNumber(Int(micros % 1000), width: 3)
    }

    private static let quote = UInt8(ascii: "\"")
    private static let equals = UInt8(ascii: "=")
    private static let backslash = UInt8(ascii: "\\")
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing results: human text or JSON, and diagnostics on standard error.
public enum Output {
    /// `toStandardError`: when standard output carries the file itself (`-o -`), the report goes
    /// beside it, on standard error.
    public static func json<T: Encodable>(_ value: T, toStandardError: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        data.withUnsafeBytes { writeAll(toStandardError ? STDERR_FILENO : STDOUT_FILENO, $0) }
    }

    /// One value as one line of JSON (JSON Lines, for a stream a script reads as it comes).
    public static func jsonLine<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        data.withUnsafeBytes { writeAll(STDOUT_FILENO, $0) }
    }

    /// One write for a whole listing: fewer system calls than a write per line.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
    }

    public static func line(_ text: String = "", toStandardError: Bool = false) {
        if toStandardError { error(text) } else { write(text + "\n") }
    }

    public static func error(_ text: String) {
        var text = text + "\n"
        text.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// write(2) until everything is out: pipes take large listings in pieces.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            base += n
            left -= n
        }
    }

    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Pads to a display width, counting East Asian wide characters and emoji as two columns.
    public static func pad(_ text: String, _ width: Int) -> String {
        let w = displayWidth(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    public static func displayWidth(_ text: String) -> Int {
        // Latin, IPA, Greek and Cyrillic letters are one column each and never join another
        // into one character: counted as scalars, without breaking the text into characters,
        // which cost the launcher's page of words more than its query.
        var columns = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            guard v != 0x0D, v < 0x300 || (0x370..<0x483).contains(v) else { return characterWidth(text) }
            columns += 1
        }
        return columns
    }

    static func characterWidth(_ text: String) -> Int {
        text.reduce(0) { total, ch in
            guard let s = ch.unicodeScalars.first else { return total }
            let v = s.value
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            return total + (wide ? 2 : 1)
        }
    }
}

extension Output {
    /// Standard error without a newline, for redrawing a progress line.
    public static func errorRaw(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#else
    private let systemWrite = Darwin.write
#endif

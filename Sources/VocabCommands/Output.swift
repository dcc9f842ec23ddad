import Foundation

/// Writing results: human text or JSON, and diagnostics on standard error.
enum Output {
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// One write for a whole listing: fewer system calls than a write per line.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Pads to a display width, counting East Asian wide characters and emoji as two columns.
    static func pad(_ text: String, _ width: Int) -> String {
        let w = displayWidth(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { total, ch in
            guard let s = ch.unicodeScalars.first else { return total }
            let v = s.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            return total + (wide ? 2 : 1)
        }
    }
}

/// An error that ends the command with a chosen exit code after its message.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32
    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }
}

extension Output {
    /// Standard error without a newline, for redrawing a progress line.
    static func errorRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

import ArgumentParser
import CLICore
import Foundation
import Mandarin

/// Which readings the Mandarin commands print.
enum ReadingStyle: String, ExpressibleByArgument, CaseIterable {
    case pinyin, bopomofo, both
}

/// Pinyin and bopomofo coloured by tone in a terminal: 1 red, 2 green, 3 blue, 4 magenta,
/// neutral grey (ANSI 31, 32, 34, 35, 90), the scheme of Pleco and most learners' tools. Off when
/// standard output is not a terminal or NO_COLOR is set (https://no-color.org);
/// CLICOLOR_FORCE=1 turns it on for a pipe.
struct ReadingDisplay {
    let style: ReadingStyle
    let colour: Bool

    init(style: ReadingStyle, environment: [String: String] = ProcessInfo.processInfo.environment, terminal: Bool = Output.stdoutIsTerminal) {
        self.style = style
        if let no = environment["NO_COLOR"], !no.isEmpty {
            colour = false
        } else if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
            colour = true
        } else {
            colour = terminal
        }
    }

    static let codes = [1: "31", 2: "32", 3: "34", 4: "35", 5: "90"]

    /// One reading, coloured syllable by syllable when colour is on.
    func paint(_ text: String, pinyin: Bool) -> String {
        guard colour else { return text }
        return ToneSyllables.split(text, pinyin: pinyin).map { piece in
            guard let tone = piece.tone, let code = Self.codes[tone] else { return piece.text }
            return "\u{1B}[\(code)m\(piece.text)\u{1B}[0m"
        }.joined()
    }

    /// `text` painted, then padded to `width` columns (escapes take no room on screen).
    func padded(_ text: String, pinyin: Bool, _ width: Int) -> String {
        paint(text, pinyin: pinyin) + String(repeating: " ", count: max(0, width - Output.displayWidth(text)))
    }

    /// The pronunciation line of `vocab lookup`.
    func sound(_ reading: Reading) -> String {
        var parts: [String] = []
        if style != .bopomofo, let p = reading.pinyin { parts.append(paint(p, pinyin: true)) }
        if style != .pinyin, let b = reading.bopomofo { parts.append(paint(b, pinyin: false)) }
        return parts.joined(separator: "  ")
    }
}

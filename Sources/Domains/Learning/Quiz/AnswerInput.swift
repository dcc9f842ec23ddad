import Foundation

public enum AnswerEvent: Sendable, Equatable {
    case line(String)
    case endOfInput
    /// No line came before the timeout.
    case timedOut
}

/// Where answers come from: the terminal or a pipe in use, a script in tests.
public protocol AnswerSource {
    /// Waits for the next line, at most `timeout` seconds when given. Blocking by design:
    /// the quiz has nothing else to do while it waits.
    func nextLine(timeout: TimeInterval?) -> AnswerEvent
}

/// A choice among the options, typed as 1-4 or a-d; `q` leaves the quiz.
public enum AnswerChoice: Sendable, Equatable {
    case option(Int)
    case quit

    public static func parse(_ text: String, optionCount: Int) -> AnswerChoice? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if t == "q" || t == "quit" { return .quit }
        if let n = Int(t), (1...optionCount).contains(n) { return .option(n - 1) }
        if t.count == 1, let scalar = t.unicodeScalars.first, scalar.isASCII {
            let index = Int(scalar.value) - Int(UnicodeScalar("a").value)
            if (0..<optionCount).contains(index) { return .option(index) }
        }
        return nil
    }
}

/// Lines from a file descriptor, with a timeout, so the countdown can end a question even
/// while nobody types. Reads the descriptor directly: stdio buffering would hide lines that
/// have already arrived from `poll`.
public final class LineReader: AnswerSource {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    public init(fileDescriptor: Int32 = STDIN_FILENO) {
        fd = fileDescriptor
    }

    public func nextLine(timeout: TimeInterval?) -> AnswerEvent {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + .milliseconds(Int64(max(0, $0) * 1000)) }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                return .line(Self.text(line))
            }
            if atEnd {
                guard !buffer.isEmpty else { return .endOfInput }
                defer { buffer.removeAll() }
                return .line(Self.text(buffer[...]))
            }
            var wait: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                guard left > .zero else { return .timedOut }
                let (seconds, attoseconds) = left.components
                wait = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                atEnd = true
                continue
            }
            if ready == 0 { continue } // the deadline check above decides
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                atEnd = true
            }
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var s = String(decoding: bytes, as: UTF8.self)
        if s.hasSuffix("\r") { s.removeLast() }
        return s
    }
}

import Foundation
import Testing

@testable import HTTPTransport

/// The server's log is written off the answering threads: nothing lost while its reader keeps
/// up, lines dropped and counted (never a request held) when it does not.
struct BatchedLogTests {
    /// A pipe: the log writes to `write`, the test reads `read`.
    final class Pipe: @unchecked Sendable {
        let read: Int32
        let write: Int32
        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            (read, write) = (fds[0], fds[1])
        }
        private var writeOpen = true
        deinit {
            close(read)
            if writeOpen { close(write) }
        }

        /// Never closed twice: the number may belong to another test's file by then.
        func closeWriteEnd() {
            if writeOpen { close(write) }
            writeOpen = false
        }

        /// Starts reading now, on a thread of its own (not a task: `flush` blocks its caller, and
        /// the reader must not wait for a free cooperative thread), until `stop` returns true of
        /// what was read; `text()` waits for it.
        func reading(until stop: @escaping @Sendable (String) -> Bool) -> Reader {
            let reader = Reader()
            Thread.detachNewThread { [read] in
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while !stop(String(decoding: bytes, as: UTF8.self)) {
                    let n = chunk.withUnsafeMutableBytes { Foundation.read(read, $0.baseAddress, $0.count) }
                    if n <= 0 { break }
                    bytes += chunk[0..<n]
                }
                reader.result = String(decoding: bytes, as: UTF8.self)
                reader.done.signal()
            }
            return reader
        }
    }

    final class Reader: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result = ""
        /// What was read; nothing if the reader has not stopped within a minute (the test fails
        /// on it rather than hanging).
        func text() -> String {
            done.wait(timeout: .now() + 60) == .success ? result : ""
        }
    }

    func line(_ i: Int) -> String { "ts=2026-12-03T10:00:00.000Z level=info logger=vocab.http msg=request n=\(i) path=/v1/words/cat\n" }

    @Test("while its reader keeps up, every line is written whole and in order")
    func everyLineInOrder() {
        let pipe = Pipe()
        let log = BatchedLog(descriptor: pipe.write)
        defer { log.finish() }
        let reading = pipe.reading { $0.contains("n=999 ") }
        for i in 0..<1000 { log.write(line(i), urgent: false) }
        log.flush()
        let text = reading.text()
        #expect(text == (0..<1000).map(line).joined())
        #expect(log.droppedLines == 0)
    }

    @Test("a reader that stops reading never holds a request: lines past the buffer are dropped, counted and said")
    func aStalledReaderCostsLinesNotAnswers() {
        let pipe = Pipe()
        // 4 KiB of buffer behind a pipe nobody reads (64 KiB): the writer thread blocks, `write` must not.
        let log = BatchedLog(descriptor: pipe.write, limit: 4096)
        defer { log.finish() }
        for i in 0..<5000 { log.write(line(i), urgent: false) }
        let dropped = log.droppedLines
        #expect(dropped > 0 && dropped < 5000, "\(dropped) dropped")
        // Read until every line is accounted for: written, or counted in a note (one a batch).
        let reading = pipe.reading { text in Self.accounted(text) == 5000 && text.hasSuffix("\n") }
        log.flush()
        let text = reading.text()
        let lines = text.split(separator: "\n")
        let kept = lines.filter { $0.contains("msg=request") }
        #expect(kept.count + dropped == 5000, "\(kept.count) kept, \(dropped) dropped")
        // Whole lines, in the order they came.
        let numbers = kept.compactMap { $0.split(separator: " ").first { $0.hasPrefix("n=") }.flatMap { Int($0.dropFirst(2)) } }
        #expect(numbers.count == kept.count && numbers == numbers.sorted())
        let notes = lines.filter { $0.contains("msg=\"log lines dropped\"") }
        #expect(!notes.isEmpty && notes.allSatisfy { $0.contains("level=warning") }, "\(notes)")
        #expect(notes.map(Self.count).reduce(0, +) == dropped)
    }

    static func count(_ note: Substring) -> Int {
        note.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap { Int($0.dropFirst(6)) } ?? 0
    }

    static func accounted(_ text: String) -> Int {
        let lines = text.split(separator: "\n")
        return lines.count { $0.contains("msg=request") } + lines.filter { $0.contains("log lines dropped") }.map(count).reduce(0, +)
    }

    @Test("a warning is written, with every line before it, by the time write returns")
    func aWarningIsOutAtOnce() {
        let pipe = Pipe()
        let log = BatchedLog(descriptor: pipe.write)
        defer { log.finish() }
        log.write(line(1), urgent: false)
        log.write("ts=2026-12-03T10:00:00.000Z level=warning logger=vocab.http msg=\"disk full\"\n", urgent: false)
        // Read without waiting: the bytes are in the pipe already.
        _ = fcntl(pipe.read, F_SETFL, O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
        let text = n > 0 ? String(decoding: chunk[0..<n], as: UTF8.self) : ""
        #expect(text.hasPrefix(line(1)) && text.contains("msg=\"disk full\""), "\(text)")
    }

    @Test("with --log-format json, the dropped-lines note is a JSON line too")
    func theNoteInJSON() throws {
        let pipe = Pipe()
        let log = BatchedLog(descriptor: pipe.write, limit: 100, json: true)
        defer { log.finish() }
        for i in 0..<2000 { log.write("{\"level\":\"info\",\"n\":\(i)}\n", urgent: false) }
        let reading = pipe.reading { text in
            let lines = text.split(separator: "\n")
            return text.hasSuffix("\n") && lines.count { $0.contains("\"n\":") } + Self.noted(lines) == 2000
        }
        log.flush()
        let notes = reading.text().split(separator: "\n").filter { $0.contains("log lines dropped") }
        #expect(!notes.isEmpty)
        for note in notes {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(note.utf8)) as? [String: Any])
            #expect(object["level"] as? String == "warning")
        }
        #expect(Self.noted(notes) == log.droppedLines)
    }

    @Test("finished, the log has written everything and closed its own copy of the descriptor")
    func finishingWritesAllAndLetsGo() {
        let pipe = Pipe()
        let log = BatchedLog(descriptor: pipe.write)
        // The log keeps a copy: the caller's descriptor can close (its number be reused) at once.
        pipe.closeWriteEnd()
        // Reads to the end of the file, which comes only when no copy of the write end is open.
        let reading = pipe.reading { _ in false }
        for i in 0..<100 { log.write(line(i), urgent: false) }
        #expect(log.finish())
        #expect(reading.text() == (0..<100).map(line).joined())
        log.write(line(100), urgent: false)
        #expect(log.droppedLines == 0)
    }

    static func noted(_ lines: [Substring]) -> Int {
        lines.filter { $0.contains("log lines dropped") }.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["count"] as? Int
        }.reduce(0, +)
    }
}

@Suite("Which log lines are written at once")
struct UrgentLineTests {
    @Test("a warning, an error or a critical line, in logfmt or JSON; not info, nor a level that only begins like one")
    func urgentLevels() {
        for level in ["warning", "error", "critical"] {
            #expect(BatchedLog.isUrgent("ts=2026-12-03T10:00:00.000Z level=\(level) logger=vocab.http msg=x\n"))
            #expect(BatchedLog.isUrgent("{\"ts\":\"2026-12-03T10:00:00.000Z\",\"level\":\"\(level)\",\"msg\":\"x\"}\n"))
        }
        for line in [
            "ts=2026-12-03T10:00:00.000Z level=info logger=vocab.http msg=request path=/error\n",
            "ts=2026-12-03T10:00:00.000Z level=warnings logger=x\n", "{\"level\":\"info\",\"msg\":\"level=error \"}\n",
            "{\"level\":\"errors\"}\n", "no level here\n", "",
            "ts=2026-12-03T10:00:00.000Z level=info logger=vocab.http msg=\"level=error\"\n", "devel=error level=info\n", "level",
        ] {
            #expect(!BatchedLog.isUrgent(line), "\(line)")
        }
    }
}

import Foundation

/// The server's log lines, written to a file descriptor by a thread of their own, in batches,
/// so that no answer waits on the log: with a line written per request on the answering thread,
/// the words page served 13,235 requests/s with p99 89.4 ms against 38,097 and 4.85 ms with the
/// log off (a slow reader of standard error, such as a terminal or journald, made it worse).
///
/// Lines wait in a buffer of at most `limit` bytes. When the reader is slower than the requests
/// and the buffer is full, a line is dropped and counted rather than held: the next batch
/// written ends with a line saying how many were dropped. A warning or an error is written
/// before `write` returns (with everything before it, waiting a second at most), so a line
/// about a failure is out before the process can end.
///
/// The log writes to a duplicate of the descriptor it is given, closed only when `finish` has
/// ended its thread: a caller that closes its own descriptor (a test's pipe) can never have log
/// lines land in whatever file or socket next gets that number.
public final class BatchedLog: @unchecked Sendable {
    // @unchecked: every field below is read and changed only under `condition`.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var writing = false
    private var dropped = 0
    private var droppedTotal = 0
    private var started = false
    private var finishing = false
    private var finished = false
    /// Callers waiting in `flush`: the writer does not gather while someone waits.
    private var flushing = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    public let limit: Int
    /// The dropped-lines line is written as JSON (`--log-format json`), else as logfmt.
    public let json: Bool

    public init(descriptor: Int32 = STDERR_FILENO, limit: Int = 1 << 20, json: Bool = false) {
        let copy = dup(descriptor)
        self.descriptor = copy >= 0 ? copy : descriptor
        ownsDescriptor = copy >= 0
        self.limit = limit
        self.json = json
    }

    /// Lines dropped since the log began, because the buffer was full.
    public var droppedLines: Int { condition.withLock { droppedTotal } }

    /// A sink for `LogfmtLogHandler` and `JSONLogHandler`.
    public var sink: @Sendable (String) -> Void {
        { [self] line in write(line, urgent: false) }
    }

    /// Queues a line (or drops it when the buffer is full); `urgent` waits until it is written.
    public func write(_ line: String, urgent: Bool) {
        let urgent = urgent || Self.isUrgent(line)
        condition.withLock {
            if finishing { return }
            if !started {
                started = true
                let thread = Thread { [self] in run() }
                thread.name = "vocab-log"
                thread.start()
            }
            if pending.count + line.utf8.count > limit && !urgent {
                // The buffer is full, so the writer is busy: no need to wake it.
                dropped += 1
                droppedTotal += 1
                return
            }
            // The writer waits only when nothing is queued: waking it for every line cost the
            // answering threads a system call and a contended lock each.
            let wasEmpty = pending.isEmpty && dropped == 0
            var line = line
            line.withUTF8 { pending.append(contentsOf: $0) }
            if wasEmpty || urgent { condition.broadcast() }
        }
        // Not for ever: a reader that stopped reading must not stop the thread that logs.
        if urgent { flush(waitingAtMost: 1) }
    }

    /// Returns once every line queued so far is written (or the descriptor refused it), or once
    /// `seconds` have passed.
    public func flush(waitingAtMost seconds: Double = 10) {
        let end = Date().addingTimeInterval(seconds)
        condition.withLock {
            flushing += 1
            defer { flushing -= 1 }
            condition.broadcast()
            while !pending.isEmpty || dropped > 0 || writing {
                if !condition.wait(until: end) { return }
            }
        }
    }

    /// How long the writer gathers lines before a write.
    static let gathering = 0.005

    /// Writes what is queued (waiting `seconds` at most), then ends the writer thread and closes
    /// the log's descriptor; lines written after are dropped silently. Returns false if the
    /// thread was still writing when the time was up (it then closes the descriptor when done).
    @discardableResult
    public func finish(waitingAtMost seconds: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        flush(waitingAtMost: seconds)
        return condition.withLock {
            finishing = true
            guard started else {
                if ownsDescriptor && !finished { close(descriptor) }
                finished = true
                return true
            }
            condition.broadcast()
            while !finished {
                if !condition.wait(until: end) { return false }
            }
            return true
        }
    }

    /// A warning or worse: logfmt's `level=` or JSON's `"level":"` field, near the line's start.
    /// Read in place, in one pass, with nothing allocated: every request's line passes here.
    static func isUrgent(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { all in
            let head = UnsafeBufferPointer(rebasing: all.prefix(80))
            // The line's own level is the first "level" followed by `=` (logfmt) or `":"` (JSON):
            // a message may quote the other kind later on.
            var i = 0
            while i + 5 < head.count {
                defer { i += 1 }
                guard head[i] == UInt8(ascii: "l"), head[i + 1] == UInt8(ascii: "e"), head[i + 2] == UInt8(ascii: "v"),
                    head[i + 3] == UInt8(ascii: "e"), head[i + 4] == UInt8(ascii: "l")
                else { continue }
                let start: Int
                let end: UInt8
                if head[i + 5] == UInt8(ascii: "=") {
                    (start, end) = (i + 6, UInt8(ascii: " "))
                } else if i + 7 < head.count, head[i + 5] == UInt8(ascii: "\""), head[i + 6] == UInt8(ascii: ":"), head[i + 7] == UInt8(ascii: "\"") {
                    (start, end) = (i + 8, UInt8(ascii: "\""))
                } else {
                    continue
                }
                var stop = start
                while stop < head.count && head[stop] != end { stop += 1 }
                // The value must end within the head, as the whole word: "warnings" is no warning.
                guard stop < head.count else { return false }
                let value = UnsafeBufferPointer(rebasing: head[start..<stop])
                return Self.urgentLevels.contains { $0.elementsEqual(value) }
            }
            return false
        }
    }

    private static let urgentLevels = ["warning", "error", "critical"].map { Array($0.utf8) }

    private func run() {
        while true {
            var batch: [UInt8] = []
            let done = condition.withLock {
                while pending.isEmpty && dropped == 0 && !finishing { condition.wait() }
                if pending.isEmpty && dropped == 0 { return true }
                // A few milliseconds more make one write of many lines rather than one a line;
                // a line someone waits for (flush, a warning) or a full buffer ends the wait.
                let gathering = Date().addingTimeInterval(Self.gathering)
                while !finishing && flushing == 0 && pending.count < limit / 2 && condition.wait(until: gathering) {}
                batch = pending
                pending.removeAll(keepingCapacity: true)
                // Every line dropped came after those still waiting: the buffer only empties here.
                if dropped > 0 {
                    batch.append(contentsOf: droppedLine(dropped).utf8)
                    dropped = 0
                }
                writing = true
                return false
            }
            if done { break }
            batch.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
                }
            }
            condition.withLock {
                writing = false
                condition.broadcast()
            }
        }
        if ownsDescriptor { close(descriptor) }
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// The line that says how many were dropped, in the log's own format.
    func droppedLine(_ count: Int) -> String {
        let reason = "the log's reader was slower than the requests"
        if json {
            return "{\"ts\":\"\(LogfmtLogHandler.timestamp())\",\"level\":\"warning\",\"logger\":\"vocab.log\",\"msg\":\"log lines dropped\","
                + "\"count\":\(count),\"reason\":\"\(reason)\"}\n"
        }
        return "ts=\(LogfmtLogHandler.timestamp()) level=warning logger=vocab.log msg=\"log lines dropped\" count=\(count) reason=\"\(reason)\"\n"
    }
}

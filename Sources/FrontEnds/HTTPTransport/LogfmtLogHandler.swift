import Foundation
import Logging

/// swift-log output as logfmt, one line per event on standard error:
/// `ts=2026-05-20T10:11:12.345Z level=info logger=vocab.http msg=request method=GET path=/v1/categories status=200 duration_ms=0.41`.
/// Each line is a single write, so lines from concurrent requests do not mix.
public struct LogfmtLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public let label: String
    private let sink: @Sendable (String) -> Void

    /// Keys printed first, in this order; the rest follow alphabetically.
    public static let leading = ["request_id", "method", "path", "query", "status", "duration_ms", "bytes", "tier", "cache"]

    public init(label: String, level: Logger.Level = .info, sink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError) {
        self.label = label
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = Self.fields(metadata, event.metadata)
        var line = begin(level: event.level, message: event.message.description, fields: all.count)
        for (key, value) in Self.ordered(all.map { ($0.key, $0.value.description) }) { line.appendField(key, value) }
        if let error = event.error { line.appendField("error", String(describing: error)) }
        finish(line)
    }

    /// Fields in a line's order: `leading` first, in its order, then the rest by key. Of a leading
    /// key given twice, the last.
    static func ordered(_ fields: [(key: String, value: String)]) -> [(key: String, value: String)] {
        leading.compactMap { key in fields.last { $0.key == key } } + fields.filter { !leading.contains($0.key) }.sorted { $0.key < $1.key }
    }

    /// A line's time, level, logger and message, for its fields to follow. The request log
    /// writes its lines this way when this handler is the logger's and has no metadata of its
    /// own: swift-log's metadata for every request (a dictionary, each key looked up again to
    /// order it) was most of a request line's cost.
    func begin(level: Logger.Level, message: String, fields: Int) -> LogLine {
        var line = LogLine(capacity: 96 + 32 * fields)
        line.append("ts=")
        line.appendTimestamp()
        line.append(" level=")
        line.appendText(level.rawValue)
        line.append(" logger=")
        line.appendValue(label)
        line.append(" msg=")
        line.appendValue(message)
        return line
    }

    /// Ends the line and writes it.
    func finish(_ line: LogLine) {
        var line = line
        line.append("\n")
        sink(line.string)
    }

    /// A line's fields: the logger's, then the event's. Hummingbird's request id is the request's
    /// `request_id` unless one was set by that name.
    static func fields(_ metadata: Logger.Metadata, _ extra: Logger.Metadata?) -> Logger.Metadata {
        // A request's line has only its own fields: no merge, no copy of them.
        if metadata.isEmpty, let extra, extra[RequestID.metadataKey] == nil { return extra }
        var all = metadata
        if let extra { all.merge(extra) { _, new in new } }
        if let id = all.removeValue(forKey: RequestID.metadataKey), all["request_id"] == nil { all["request_id"] = id }
        return all
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// A bare value when it is safe, else a quoted one with quotes, backslashes and control
    /// characters escaped (so a request path can never start a new log line).
    public static func value(_ text: String) -> String {
        var line = LogLine(capacity: text.utf8.count + 2)
        line.appendValue(text)
        return line.string
    }

    /// A value with characters other than printable ASCII, quoted, each control, format or
    /// separator character escaped by its code point.
    static func quotedScalars(_ text: String) -> String {
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if s.value < 0x20 || s.value == 0x7F || Self.isControl(s) {
                    let hex = String(s.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    /// UTC with milliseconds, "2026-05-20T10:11:12.345Z", without Foundation's formatters.
    public static func timestamp() -> String {
        var line = LogLine(capacity: 24)
        line.appendTimestamp()
        return line.string
    }

    /// Milliseconds with three decimals, "0.412".
    public static func milliseconds(_ duration: Duration) -> String {
        var line = LogLine(capacity: 12)
        line.appendMilliseconds(duration)
        return line.string
    }

    /// Control, format and separator characters: kept out of log values so a line stays one line.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }
}

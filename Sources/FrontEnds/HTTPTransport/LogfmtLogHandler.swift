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
        var ordered: [(key: String, value: String)] = []
        ordered.reserveCapacity(all.count)
        for key in Self.leading {
            if let v = all[key] { ordered.append((key, v.description)) }
        }
        if all.count > ordered.count {
            for key in all.keys.filter({ !Self.leading.contains($0) }).sorted() { ordered.append((key, all[key]!.description)) }
        }
        writeLine(level: event.level, message: event.message.description, fields: ordered, error: event.error)
    }

    /// A line of these fields, in this order (`leading` first, then by key, as `log(event:)`
    /// orders them). The request log writes its lines here when this handler is the logger's and
    /// has no metadata of its own: building swift-log's metadata for every request, a dictionary,
    /// and looking each key up again to order it, were most of a request line's cost.
    public func writeLine(level: Logger.Level, message: String, fields: [(key: String, value: String)], error: (any Error)? = nil) {
        var out = "ts=\(Self.timestamp()) level=\(level.rawValue) logger=\(Self.value(label)) msg=\(Self.value(message))"
        out.reserveCapacity(out.utf8.count + 32 * fields.count)
        for (key, value) in fields {
            out += " "
            out += key
            out += "="
            out += Self.value(value)
        }
        if let error { out += " error=\(Self.value(String(describing: error)))" }
        out += "\n"
        sink(out)
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
        let plain =
            !text.isEmpty
            && text.utf8.allSatisfy { b in
                b > 0x20 && b < 0x7F && b != UInt8(ascii: "\"") && b != UInt8(ascii: "=") && b != UInt8(ascii: "\\")
            }
        if plain { return text }
        // Printable ASCII (a query string, most messages): only quotes and backslashes escaped,
        // without looking up each character's Unicode category.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            var out = "\""
            out.reserveCapacity(text.utf8.count + 4)
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out += "\\" }
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
            return out + "\""
        }
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
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        var out = ""
        out.reserveCapacity(24)
        func put(_ n: Int, _ width: Int) {
            let digits = String(n)
            if digits.count < width { out += String(repeating: "0", count: width - digits.count) }
            out += digits
        }
        put(Int(parts.tm_year) + 1900, 4)
        out += "-"
        put(Int(parts.tm_mon) + 1, 2)
        out += "-"
        put(Int(parts.tm_mday), 2)
        out += "T"
        put(Int(parts.tm_hour), 2)
        out += ":"
        put(Int(parts.tm_min), 2)
        out += ":"
        put(Int(parts.tm_sec), 2)
        out += "."
        put(Int(now.tv_nsec / 1_000_000), 3)
        out += "Z"
        return out
    }

    /// Milliseconds with three decimals, "0.412".
    public static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Control, format and separator characters: kept out of log values so a line stays one line.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }
}

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
    static let leading = ["method", "path", "query", "status", "duration_ms", "bytes", "tier", "cache"]

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
        var all = self.metadata
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        var out = "ts=\(Self.timestamp()) level=\(event.level.rawValue) logger=\(Self.value(label)) msg=\(Self.value(event.message.description))"
        let keys = Self.leading.filter { all[$0] != nil } + all.keys.filter { !Self.leading.contains($0) }.sorted()
        for key in keys {
            out += " \(key)=\(Self.value(all[key]!.description))"
        }
        if let error = event.error { out += " error=\(Self.value(String(describing: error)))" }
        out += "\n"
        sink(out)
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
    static func value(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { s in
            s.value > 0x20 && s.value != 0x7F && s != "\"" && s != "=" && s != "\\" && !InputRules.isControl(s)
        }
        if plain { return text }
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if s.value < 0x20 || s.value == 0x7F || InputRules.isControl(s) {
                    out += String(format: "\\u%04X", s.value)
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }
}

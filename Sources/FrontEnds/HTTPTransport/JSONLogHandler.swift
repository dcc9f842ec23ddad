import Foundation
import HTTPTypes
import JSONReading
import Logging

/// swift-log output as JSON lines (`vocab serve --log-format json`), for log collectors:
/// `{"ts":"2026-05-20T10:11:12.345Z","level":"info","logger":"vocab.http","msg":"request","method":"GET",…}`.
/// Metadata values that are numbers (status, bytes, duration_ms) are written as numbers. One write a line.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public let label: String
    private let sink: @Sendable (String) -> Void

    public init(label: String, level: Logger.Level = .info, sink: @escaping @Sendable (String) -> Void = LogfmtLogHandler.standardError) {
        self.label = label
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keys whose values are numbers when they parse as one.
    static let numeric: Set<String> = ["status", "bytes", "duration_ms", "port", "processes"]

    public func log(event: LogEvent) {
        let all = LogfmtLogHandler.fields(metadata, event.metadata)
        var out =
            "{\"ts\":\(Self.quoted(LogfmtLogHandler.timestamp())),\"level\":\(Self.quoted(event.level.rawValue)),"
            + "\"logger\":\(Self.quoted(label)),\"msg\":\(Self.quoted(event.message.description))"
        let ordered = LogfmtLogHandler.leading.filter { all[$0] != nil } + all.keys.filter { !LogfmtLogHandler.leading.contains($0) }.sorted()
        for key in ordered {
            let text = all[key]!.description
            let value = Self.numeric.contains(key) && Double(text) != nil && !text.contains(where: { $0.isLetter }) ? text : Self.quoted(text)
            out += ",\(Self.quoted(key)):\(value)"
        }
        if let error = event.error { out += ",\"error\":\(Self.quoted(String(describing: error)))" }
        sink(out + "}\n")
    }

    /// A JSON string as the rest of vocab writes one by hand: a line break is `\n`, so a line stays one line.
    static func quoted(_ text: String) -> String { JSONQuoting.quoted(text) }
}

/// The id of a request, in every log line of it and in its `X-Request-Id` header: the client's
/// own when it sends a plausible one (so a proxy's id carries through), else the one
/// Hummingbird made for it.
public enum RequestID {
    public static let header = "X-Request-Id"
    public static let field = HTTPField.Name(header)!
    /// Where Hummingbird keeps the id it gives every request (`RequestContext.id`); the log
    /// handlers print it as `request_id`.
    public static let metadataKey = "hb.request.id"

    public static func accepted(_ sent: String?) -> String? {
        guard let sent, (1...64).contains(sent.utf8.count), sent.utf8.allSatisfy(plain) else { return nil }
        return sent
    }

    private static func plain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
        default: false
        }
    }
}

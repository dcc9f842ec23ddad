import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import Testing

@testable import HTTPTransport

/// The request log writes its lines straight to a logfmt handler that has nothing to add: the
/// same line, field for field, as swift-log's way through the handler writes.
@Suite("The request log's line")
struct RequestLogTests {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        var sink: @Sendable (String) -> Void { { line in self.all.withLock { $0.append(line) } } }
    }

    /// A line with its time and duration, which differ from run to run, taken out.
    func steady(_ line: String) -> String {
        line.split(separator: " ").filter { !$0.hasPrefix("ts=") && !$0.hasPrefix("duration_ms=") }.joined(separator: " ")
    }

    @Test(
        "straight to the handler, a request's line is the one swift-log's metadata gives: every field in the same order, values quoted alike",
        arguments: [nil, "level=starters&limit=2", "q=\"a b\""])
    func sameLine(_ query: String?) throws {
        let direct = Lines()
        let handler = LogfmtLogHandler(label: "vocab.http", level: .info, sink: direct.sink)
        let log = RequestLog<BasicRequestContext>(
            logger: Logger(label: "vocab.http") { _ in handler },
            loggedHeaders: [(VocabHeader.tier, "tier"), (VocabHeader.cache, "cache"), (HTTPField.Name("X-Extra")!, "extra")])
        var headers = HTTPFields()
        headers[VocabHeader.cache] = "hit"
        headers[HTTPField.Name("X-Extra")!] = "two words"
        headers[VocabHeader.tier] = "neural"
        log.log(method: "GET", path: "/v1/audio/ice cream", query: query, status: 200, start: .now, bytes: 5120, headers: headers, id: "r-1")
        let line = try #require(direct.all.withLock { $0.first })

        let viaMetadata = Lines()
        var metadata: Logger.Metadata = [
            "request_id": "r-1", "method": "GET", "path": "/v1/audio/ice cream", "status": "200", "duration_ms": "0.001", "bytes": "5120",
            "tier": "neural", "cache": "hit", "extra": "two words",
        ]
        if let query { metadata["query"] = .string(query) }
        Logger(label: "vocab.http") { _ in LogfmtLogHandler(label: "vocab.http", level: .info, sink: viaMetadata.sink) }
            .info("request", metadata: metadata)
        let expected = try #require(viaMetadata.all.withLock { $0.first })
        #expect(steady(line) == steady(expected))
        #expect(line.hasSuffix("\n") && line.contains(" duration_ms="))
    }

    @Test("a handler with metadata of its own gets the line through swift-log, with that metadata")
    func handlerMetadataKept() throws {
        let lines = Lines()
        var handler = LogfmtLogHandler(label: "vocab.http", level: .info, sink: lines.sink)
        handler.metadata["instance"] = "a"
        let log = RequestLog<BasicRequestContext>(logger: Logger(label: "vocab.http") { _ in handler })
        log.log(method: "GET", path: "/healthz", query: nil, status: 200, start: .now, bytes: 2, headers: [:], id: "r-2")
        let line = try #require(lines.all.withLock { $0.first })
        #expect(line.contains(" instance=a") && line.contains(" request_id=r-2"), "\(line)")
    }
}

import AudioFile
import Catalog
import Foundation
import HTTPAPI
import HTTPTransport
import TestSupport
import Testing

/// Clients that are slow, silent or too many, over real loopback sockets, against a server in
/// this process with short deadlines. Each test checks what the client sees (its connection
/// closed, a 503) rather than how long that took; when each deadline falls is tested on a clock
/// the test moves (`RequestDeadlinesTests`).
@Suite("vocab serve: deadlines for slow clients and a limit on connections")
struct ConnectionLimitTests {
    /// How long a client waits for what the server is due to do within a second or two: only a
    /// failing test waits it out, and a machine busy with the rest of the run (other servers,
    /// PostgreSQL, the kill tests) has once kept a due answer and close from coming for 15 s.
    static let patience = 90.0

    /// One second for a head, a body, and between requests.
    static let short = ConnectionLimits(maxConnections: 16, headerTimeout: .seconds(1), bodyTimeout: .seconds(1), idleTimeout: .seconds(1))

    func withServer(
        _ limits: ConnectionLimits = short, prepare: (TemporaryDirectory) throws -> Void = { _ in },
        _ body: (TestServer) async throws -> Void
    ) async throws {
        let server = try await TestServer.start(settings: ServerSettings(port: 0, connections: limits), prepare: prepare)
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a head sent one byte every 300 ms is cut off at the header deadline")
    func slowHead() async throws {
        try await withServer { s in
            let head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 60))\r\n\r\n"
            let sent = try await onThread {
                let client = try ClientSocket(port: s.port)
                for (i, byte) in head.enumerated() {
                    guard client.send(String(byte)), !client.isClosedByServer(waiting: 300) else { return i + 1 }
                }
                return head.count + 1
            }
            #expect(sent <= head.count, "the connection was closed before the head was complete (after \(sent) of \(head.count) bytes)")
        }
    }

    @Test("a connection that sends nothing is closed")
    func silent() async throws {
        try await withServer { s in
            let (closed, received) = try await onThread {
                let client = try ClientSocket(port: s.port)
                return (client.readToEnd(within: Self.patience), client.received)
            }
            #expect(closed, "the server closed the silent connection")
            #expect(received.isEmpty, "without a word")
        }
    }

    @Test("a kept-alive connection idle after its response is closed")
    func idleAfterAResponse() async throws {
        try await withServer { s in
            let (closed, text) = try await onThread {
                let client = try ClientSocket(port: s.port)
                client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return (client.readToEnd(within: Self.patience), String(decoding: client.received, as: UTF8.self))
            }
            #expect(text.hasPrefix("HTTP/1.1 200"), "the request was answered first: \(text.prefix(80))")
            #expect(!text.lowercased().contains("connection: close"), "a keep-alive answer")
            #expect(closed, "then the idle connection was closed")
        }
    }

    @Test("a body sent one byte every 300 ms is cut off at the body deadline")
    func slowBody() async throws {
        try await withServer { s in
            let length = 80
            let sent = try await onThread {
                let client = try ClientSocket(port: s.port)
                client.send("GET /v1/search?q=cat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n")
                for i in 0..<length {
                    guard client.send("x"), !client.isClosedByServer(waiting: 300) else { return i + 1 }
                }
                return length + 1
            }
            #expect(sent <= length, "the connection was closed before the body was complete (after \(sent) of \(length) bytes)")
        }
    }

    @Test("past the limit a connection gets a 503 JSON answer with Retry-After and is closed; the service recovers")
    func overTheLimit() async throws {
        // Long deadlines: the held connections must stay open while the test looks.
        let limits = ConnectionLimits(maxConnections: 16, headerTimeout: .seconds(60), bodyTimeout: .seconds(60), idleTimeout: .seconds(60))
        try await withServer(limits) { s in
            let (shed, others) = try await onThread { () -> ([ClientSocket], [ClientSocket]) in
                // Seventeen at once: which one is over the limit depends on the order the
                // event loops set them up, but exactly one is.
                let clients = try (0..<17).map { _ in try ClientSocket(port: s.port) }
                var shed: [ClientSocket] = []
                for _ in 0..<100 where shed.isEmpty {
                    shed = clients.filter { $0.isClosedByServer(waiting: 0) }
                    usleep(50_000)
                }
                usleep(300_000)
                shed = clients.filter { $0.isClosedByServer(waiting: 0) }
                return (shed, clients.filter { c in !shed.contains { $0 === c } })
            }
            #expect(shed.count == 1, "exactly one of 17 connections is over a limit of 16")
            let refused = try #require(try shed.first?.response())
            #expect(refused.status == 503)
            #expect(refused.header("retry-after") == "1")
            #expect(refused.header("content-type")?.hasPrefix("application/json") == true)
            #expect(try refused.error()["code"] as? String == "overloaded")

            // While sixteen are held, a newcomer is refused the same way, at once.
            let newcomer = try await s.get("/healthz")
            #expect(newcomer.status == 503)

            for client in others { client.close() }
            var status = 0
            for _ in 0..<100 where status != 200 {
                status = try await s.get("/healthz").status
                if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == 200, "once the held connections are gone, requests are answered again")
        }
    }

    /// One connection at most, with the documented deadlines (10 s for a head, 30 s idle): a
    /// slot is free again within `ConnectionLimits.linger` only if the server closes the
    /// connection it has finished with, not when a deadline comes.
    static let oneSlot = ConnectionLimits(maxConnections: 1)

    /// Seconds until a new connection is answered 200 by /healthz (until then the one slot is
    /// taken and newcomers get 503), or nil when that takes longer than `seconds`.
    func secondsUntilTheSlotIsFree(_ s: TestServer, within seconds: Double) async throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if (try? await s.get("/healthz"))?.status == 200 { return Date().timeIntervalSince(start) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    @Test(
        "a method trickled byte by byte that is no method gets 400 and a close, and the slot is free again within the header deadline though the client keeps its socket open"
    )
    func unparsableRequestFreesItsSlot() async throws {
        try await withServer(Self.oneSlot) { s in
            let (client, closed, text) = try await onThread {
                let client = try ClientSocket(port: s.port)
                for byte in "BREW /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" {
                    guard client.send(String(byte)), !client.isClosedByServer(waiting: 50) else { break }
                }
                return (client, client.readToEnd(within: 5), String(decoding: client.received, as: UTF8.self))
            }
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(80))")
            #expect(closed, "the server ended its side after the 400")
            // The client neither closes nor sends more, as a hostile one would not.
            let freed = try await secondsUntilTheSlotIsFree(s, within: 9)
            #expect(freed != nil, "the slot of the connection answered 400 was still taken 9 s later")
            client.close()
        }
    }

    @Test(
        "a request that does not keep the connection alive is answered, then the server closes the connection and frees its slot at once",
        arguments: [
            "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        ])
    func answeredThenClosed(request: String) async throws {
        try await withServer(Self.oneSlot) { s in
            let (client, closed, text) = try await onThread {
                let client = try ClientSocket(port: s.port)
                client.send(request)
                // The answer may take seconds on a loaded machine; the 5 s for the close count from it.
                let deadline = Date().addingTimeInterval(30)
                var closed = false
                while client.received.isEmpty, !closed, Date() < deadline { closed = client.isClosedByServer(waiting: 100) }
                return (client, closed || client.readToEnd(within: 5), String(decoding: client.received, as: UTF8.self))
            }
            #expect(text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.0 200"), "\(text.prefix(80))")
            #expect(closed, "the client read the end of the connection within 5 s of the answer, not after the 30 s idle deadline")
            // The client keeps its socket open: the server closes the connection all the same.
            let freed = try await secondsUntilTheSlotIsFree(s, within: 9)
            #expect(freed != nil, "the slot was still taken 9 s after the answer")
            client.close()
        }
    }

    @Test("an HTTP/1.0 request with Connection: keep-alive keeps its connection for the next request")
    func http10KeepAlive() async throws {
        try await withServer(ConnectionLimits()) { s in
            let text = try await onThread {
                let client = try ClientSocket(port: s.port)
                func answers() -> Int { String(decoding: client.received, as: UTF8.self).components(separatedBy: " 200 ").count - 1 }
                for request in 1...2 {
                    client.send("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
                    // Each answer is waited for (a loaded machine may take seconds), unless the server closes.
                    let deadline = Date().addingTimeInterval(15)
                    var closed = false
                    while answers() < request, !closed, Date() < deadline { closed = client.isClosedByServer(waiting: 100) }
                    if closed { break }
                }
                return String(decoding: client.received, as: UTF8.self)
            }
            #expect(text.components(separatedBy: " 200 ").count - 1 == 2, "both requests were answered on one connection: \(text.prefix(300))")
        }
    }

    @Test("a request the server is still answering is never cut, however long it takes")
    func answeringIsNotIdle() async throws {
        // A recorded clip behind a remote server that waits 2.5 s, longer than every deadline.
        let wav = try TemporaryDirectory("slow-clip")
        defer { wav.remove() }
        try AudioFile.write(ServerFixture.tone(500), to: wav.file("slow.wav"), format: .wav)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wav.file("slow.wav"))))
        let remote = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(contentType: "audio/wav", body: bytes, delay: 2.5) }
        defer { remote.stop() }
        let slowClip: (TemporaryDirectory) throws -> Void = { dir in
            try dir.write(
                "Categories/food.json",
                CatalogFixture.category(
                    "food", name: "Food and drink", order: 2,
                    words: [
                        CatalogFixture.word(
                            "apple", category: "food", vi: "quả táo",
                            extra: #", "audio": {"british": {"recorded": "\#(remote.baseURL)/apple.wav"}}"#)
                    ]))
        }
        try await withServer(prepare: slowClip) { s in
            let answers = try await RawHTTP.exchange(port: s.port, [("GET", "/v1/audio/apple?accent=british", [:]), ("GET", "/healthz", [:])])
            #expect(answers[0].status == 200, "\(answers[0].text.prefix(200))")
            #expect(answers[0].header("x-vocab-tier") == "recorded", "the slow remote clip was waited for")
            #expect(answers[0].body.count > 1000)
            #expect(answers[1].status == 200, "and the connection was still open for the next request")
            #expect(remote.requests(to: "/apple.wav") == 1)
        }
    }
}

import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import HTTPTransport

/// The deadlines of a connection on an event loop whose clock the test moves: what is due at a
/// second happens at that second and not a moment before, however busy the machine is.
@Suite("Request deadlines on a clock the test controls")
struct RequestDeadlinesTests {
    /// One second for a head, a body and between requests.
    static let limits = ConnectionLimits(maxConnections: 16, headerTimeout: .seconds(1), bodyTimeout: .seconds(1), idleTimeout: .seconds(1))

    /// A connection just accepted: the handler between the HTTP decoder and the server.
    func accepted() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestDeadlines(limits: Self.limits))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    static let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/healthz")

    func receive(_ channel: EmbeddedChannel, _ parts: HTTPServerRequestPart...) throws {
        for part in parts { try channel.writeInbound(part) }
        while try channel.readInbound(as: HTTPServerRequestPart.self) != nil {}
    }

    func answer(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        while try channel.readOutbound(as: HTTPServerResponsePart.self) != nil {}
    }

    func wait(_ channel: EmbeddedChannel, _ time: TimeAmount) { channel.embeddedEventLoop.advanceTime(by: time) }

    @Test("a connection that sends nothing is closed at the header deadline, not before")
    func silent() throws {
        let channel = try accepted()
        wait(channel, .milliseconds(999))
        #expect(channel.isActive)
        wait(channel, .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test("a head that does not end within the header deadline is cut; a body gets its own deadline from its head")
    func headThenBody() throws {
        let channel = try accepted()
        wait(channel, .milliseconds(900))
        try receive(channel, .head(Self.head))
        wait(channel, .milliseconds(999))
        #expect(channel.isActive, "the body's second starts with the head")
        wait(channel, .milliseconds(1))
        #expect(!channel.isActive, "no end within the body deadline")
    }

    @Test("each request of a kept-alive connection starts its deadlines afresh: one every 400 ms for 2.8 s is never cut, then the idle one is")
    func keptAlive() throws {
        let channel = try accepted()
        for _ in 0..<7 {
            try receive(channel, .head(Self.head), .end(nil))
            try answer(channel)
            wait(channel, .milliseconds(400))
            #expect(channel.isActive, "closed while requests kept coming")
        }
        wait(channel, .milliseconds(599))
        #expect(channel.isActive)
        wait(channel, .milliseconds(1))
        #expect(!channel.isActive, "idle a second after the last answer")
    }

    @Test("no deadline runs while the server answers, however long it takes; the idle one starts with the answer")
    func answering() throws {
        let channel = try accepted()
        try receive(channel, .head(Self.head), .end(nil))
        wait(channel, .seconds(600))
        #expect(channel.isActive, "the server bounds its own work")
        try answer(channel)
        wait(channel, .milliseconds(999))
        #expect(channel.isActive)
        wait(channel, .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test("a connection closed by its client stops its timer")
    func closedByClient() throws {
        let channel = try accepted()
        try receive(channel, .head(Self.head), .end(nil))
        try answer(channel)
        try channel.close().wait()
        wait(channel, .seconds(5))
        #expect(!channel.isActive)
    }
}

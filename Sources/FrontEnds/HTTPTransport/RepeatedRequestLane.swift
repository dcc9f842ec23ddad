import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// The HTTP/1 pipeline of `vocab serve`: Hummingbird's, with the connection's deadlines and
/// `RepeatedRequestLane` in front, and connections over the limit refused with a 503.
public struct VocabHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    public typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    public let responder: HTTPChannelHandler.Responder
    public let cache: ResponseCache
    public let requestLog: RequestLog<BasicRequestContext>
    public let limits: ConnectionLimits
    let counter: ConnectionCounter
    let ids = LaneRequestIDs()

    public init(
        responder: @escaping HTTPChannelHandler.Responder, cache: ResponseCache, requestLog: RequestLog<BasicRequestContext>,
        limits: ConnectionLimits
    ) {
        self.responder = responder
        self.cache = cache
        self.requestLog = requestLog
        self.limits = limits
        self.counter = ConnectionCounter()
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = counter.open(limit: limits.maxConnections)
        requestLog.metrics?.connectionOpened()
        channel.closeFuture.whenComplete { [counter, requestLog] _ in
            counter.close()
            requestLog.metrics?.connectionClosed()
        }
        return channel.eventLoop.makeCompletedFuture {
            if !admitted {
                // Over the limit: a clear answer at once, rather than a socket left waiting.
                try channel.pipeline.syncOperations.addHandler(SheddingHandler())
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            }
            // The encoder and decoder unpaired: paired, the encoder drops a response's body when
            // the request the decoder read in its turn was a HEAD, and the lane's answers put
            // that out of step (see HeadResponses, which does it above the lane).
            try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
            let socket = SocketWriter()
            try channel.pipeline.syncOperations.addHandler(socket, position: .first)
            try channel.pipeline.syncOperations.addHandler(RequestDeadlines(limits: limits))
            try channel.pipeline.syncOperations.addHandler(RepeatedRequestLane(cache: cache, requestLog: requestLog, socket: socket, ids: ids))
            try channel.pipeline.syncOperations.addHandler(HeadResponses())
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    public func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

/// Answers a request target already answered once, on the event loop, without the trip
/// through Swift concurrency, the router and the middleware: most of a request's cost.
/// It replays exactly what `RepeatedRequests` would (the same cached representation, with
/// the same conditional and gzip handling), so the two paths cannot disagree.
///
/// Only keep-alive GET and HEAD requests with nothing else in flight on the connection take
/// this lane: a request behind one the application is still answering goes the normal way,
/// so responses never overtake each other, and requests that close the connection leave
/// that to Hummingbird.
public final class RepeatedRequestLane: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPServerRequestPart
    public typealias InboundOut = HTTPServerRequestPart
    public typealias OutboundIn = HTTPServerResponsePart
    public typealias OutboundOut = HTTPServerResponsePart

    private let cache: ResponseCache
    private let requestLog: RequestLog<BasicRequestContext>
    private let socket: SocketWriter
    /// Requests passed on whose response has not been written to the end yet.
    private var forwarded = 0
    /// The request this lane is answering (its body, if any, is read and dropped).
    private var answering: (head: HTTPRequestHead, representation: Representation, start: ContinuousClock.Instant)?
    private var dates = HTTPDate()
    private let ids: LaneRequestIDs

    init(cache: ResponseCache, requestLog: RequestLog<BasicRequestContext>, socket: SocketWriter, ids: LaneRequestIDs) {
        self.cache = cache
        self.requestLog = requestLog
        self.socket = socket
        self.ids = ids
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if forwarded == 0, head.method == .GET || head.method == .HEAD, head.isKeepAlive,
                let hit = cache[RepeatedRequests<BasicRequestContext>.key(target: head.uri)]
            {
                answering = (head, hit, .now)
                return
            }
            forwarded += 1
        case .body:
            if answering != nil { return }
        case .end:
            if let (head, representation, start) = answering {
                answering = nil
                respond(context: context, head: head, representation: representation, start: start)
                return
            }
        }
        context.fireChannelRead(data)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { forwarded -= 1 }
        context.write(data, promise: promise)
    }

    private func respond(context: ChannelHandlerContext, head: HTTPRequestHead, representation: Representation, start: ContinuousClock.Instant) {
        let answer = representation.answer(
            acceptEncoding: head.headers.first(name: "accept-encoding"),
            ifNoneMatch: head.headers.first(name: "if-none-match"))
        // Finished bytes, under the HTTP encoder: nothing is left to serialise per request.
        socket.write(answer.wireHead)
        let sent = head.headers.first(name: RequestID.header).flatMap(RequestID.accepted)
        var lines = context.channel.allocator.buffer(capacity: 128)
        let id = ids.write(sent, into: &lines, logged: requestLog.isEnabled)
        lines.writeImmutableBuffer(dates.line())
        socket.write(lines)
        if let body = answer.body, head.method != .HEAD { socket.write(body) }
        socket.flush()
        context.triggerUserOutboundEvent(RequestDeadlines.AnsweredInLane(), promise: nil)
        guard requestLog.isEnabled else { return }
        let (path, query) = Self.split(head.uri)
        requestLog.log(
            method: head.method.rawValue, path: path, query: query, status: Int(answer.status.code), start: start,
            bytes: answer.body?.readableBytes ?? 0, headers: answer.fields, id: id, fromMemory: true)
    }

    public static func split(_ target: String) -> (path: String, query: String?) {
        // Searched as bytes: a search by Character cost a fifth of an answer from memory.
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}

/// The first handler of the pipeline, next to the socket: RepeatedRequestLane writes finished
/// response bytes through it, below the HTTP encoder. Everything else passes through untouched.
public final class SocketWriter: ChannelOutboundHandler, RemovableChannelHandler {
    public typealias OutboundIn = IOData
    public typealias OutboundOut = IOData
    private var context: ChannelHandlerContext?

    public func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    public func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    public func write(_ bytes: ByteBuffer) { context?.write(wrapOutboundOut(.byteBuffer(bytes)), promise: nil) }
    public func flush() { context?.flush() }
}

/// The ids of answers from memory, in the form of Hummingbird's (a random half fixed for the run,
/// then a count from a random start), written as bytes straight into the answer: made as strings
/// they cost a seventh of such an answer.
final class LaneRequestIDs: Sendable {
    private let high: [UInt8]
    private let count: Atomic<UInt64>

    init() {
        var random = SystemRandomNumberGenerator()
        var high = ByteBuffer()
        Self.writeHex(random.next(), into: &high)
        self.high = Array(high.readableBytesView)
        count = Atomic(random.next())
    }

    /// Writes the `X-Request-Id` line: the client's `sent` id, else a new one. Returns the id as
    /// a string only when `logged`.
    func write(_ sent: String?, into buffer: inout ByteBuffer, logged: Bool) -> String {
        buffer.writeStaticString("X-Request-Id: ")
        let start = buffer.writerIndex
        if let sent {
            buffer.writeString(sent)
        } else {
            buffer.writeBytes(high)
            Self.writeHex(count.wrappingAdd(1, ordering: .relaxed).oldValue, into: &buffer)
        }
        let id = logged ? buffer.getString(at: start, length: buffer.writerIndex - start) ?? "" : ""
        buffer.writeStaticString("\r\n")
        return id
    }

    /// Sixteen hex digits, leading zeros kept.
    private static func writeHex(_ value: UInt64, into buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16) { bytes in
            for i in 0..<16 {
                let digit = UInt8((value >> UInt64(60 - 4 * i)) & 0xf)
                bytes[i] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            return 16
        }
    }
}

/// The Date header line (RFC 9110 IMF-fixdate) and the blank line that ends a head, made once
/// per second.
public struct HTTPDate {
    private var second = -1
    private var bytes = ByteBuffer()

    public mutating func line() -> ByteBuffer {
        let t = time(nil)
        if Int(t) != second {
            bytes = ByteBuffer(string: "Date: \(Self.format(t))\r\n\r\n")
            second = Int(t)
        }
        return bytes
    }

    public static func format(_ t: time_t) -> String {
        var t = t
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

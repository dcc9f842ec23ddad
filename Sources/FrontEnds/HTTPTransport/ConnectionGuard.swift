import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// How long a client may take and how many may be connected: without these, a socket that
/// sends one header byte a second, or nothing, stays open for ever, and a thousand of them use
/// up the process's file descriptors so that nobody else is answered.
public struct ConnectionLimits: Sendable, Equatable {
    /// Open connections at most; one more is answered 503 and closed at once.
    public var maxConnections: Int
    /// From connecting (or from the end of the last response) to a complete request head.
    public var headerTimeout: TimeAmount
    /// From the request head to the end of its body.
    public var bodyTimeout: TimeAmount
    /// A kept-alive connection with nothing in flight, waiting for the next request.
    public var idleTimeout: TimeAmount

    public init(
        maxConnections: Int = 512, headerTimeout: TimeAmount = .seconds(10), bodyTimeout: TimeAmount = .seconds(30),
        idleTimeout: TimeAmount = .seconds(30)
    ) {
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
    }

    /// Once the server has ended its side of a connection (a 503 over the limit, a 400, the
    /// answer to a request that does not keep the connection alive), how long the client has to
    /// end its side before the connection is closed anyway. Not at once: closing a socket with
    /// the client's bytes unread resets the connection, and the client could lose the answer
    /// before reading it. Not the idle deadline either: the connection's slot is counted until
    /// it closes, and a client that never closes would hold it for 30 s.
    public static let linger = TimeAmount.seconds(2)
}

/// Open connections, shared by every child channel of one server.
final class ConnectionCounter: Sendable {
    private let count = Mutex(0)

    /// Counts a new connection; false when it is one too many (it is still counted until closed).
    func open(limit: Int) -> Bool {
        count.withLock { n in
            n += 1
            return n <= limit
        }
    }

    func close() { count.withLock { $0 -= 1 } }
}

/// Answers a connection over the limit with 503 and closes it. The client's request is read and
/// dropped, never parsed. The answer is sent, the server's side is ended (the client reads the
/// answer, then the end), and the connection is closed when the client closes its side, or
/// after `ConnectionLimits.linger` at most.
final class SheddingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    static let response: String = {
        let body = #"{"error":{"code":"overloaded","message":"the server has too many open connections; try again shortly.","suggestions":[]}}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }()

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    /// What the client sends is dropped.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private var refused = false

    private func refuse(_ context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: Self.response))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        channel.eventLoop.scheduleTask(in: ConnectionLimits.linger) { channel.close(promise: nil) }
    }
}

/// Closes a connection whose client is too slow: no complete request head within
/// `headerTimeout` of connecting, no complete body within `bodyTimeout` of its head, no next
/// request within `idleTimeout` of the last response. While the server is answering, no
/// deadline runs (the server bounds its own work).
///
/// And closes a connection the server has finished with, so that its slot is free again: after
/// the answer to a request that does not keep the connection alive (HTTP/1.0 without
/// `Connection: keep-alive`, or `Connection: close`), which Hummingbird would otherwise wait
/// on for a next request, and after a 400 for a request that cannot be parsed. The server's
/// side is ended first (the client reads the answer, then the end); the connection is closed
/// when the client ends its side, or after `ConnectionLimits.linger`, whatever deadline was
/// running.
///
/// It sits after the HTTP decoder, so it sees request parts; responses it sees as they pass on
/// their way out, or, for those `RepeatedRequestLane` writes below the encoder, by the lane's
/// `AnsweredInLane` event.
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Sent by the lane after it wrote a whole response itself.
    struct AnsweredInLane {}

    private let limits: ConnectionLimits
    /// When the connection is closed unless a deadline is set again or cleared first.
    private var deadline: NIODeadline?
    /// One timer per connection, not one per deadline: a keep-alive request sets two and clears
    /// one, and scheduling and cancelling a task for each was 2% of the server's time under load.
    /// When it fires it closes the connection, waits on for a later deadline, or does nothing.
    private var timer: Scheduled<Void>?
    private var timerFires: NIODeadline?
    /// A request whose head arrived and whose end has not.
    private var receiving = false
    /// Requests received whole whose responses are not finished.
    private var answering = 0
    /// A request arrived that does not keep the connection alive: the server's side ends with
    /// the last answer.
    private var endAfterAnswers = false
    /// The server's side is ended: what the client still sends is read and dropped, and only
    /// the linger deadline runs.
    private var ending = false

    init(limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, limits.headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, limits.headerTimeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if ending { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            receiving = true
            if !head.isKeepAlive { endAfterAnswers = true }
            arm(context, limits.bodyTimeout)
        case .body:
            break
        case .end:
            receiving = false
            answering += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        // Nobody above reads any more once the server's side is ended; reading on is what lets
        // the client's end be seen (NIO then closes the connection).
        if ending { context.read() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Bytes after a request that could not be parsed, or after the last answer: the
        // connection is closing, and nobody is left to tell.
        if ending { return }
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // However the server's side was ended: by this handler, by Hummingbird after a 400 or
        // `Connection: close`, or after an error.
        if case ChannelEvent.outputClosed = event { linger(context) }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), responseFinished(context) else {
            context.write(data, promise: promise)
            return
        }
        // The last answer: the server's side ends once it is written.
        let written = context.eventLoop.makePromise(of: Void.self)
        if let promise { written.futureResult.cascade(to: promise) }
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(mode: .output, promise: nil) }
        context.write(data, promise: written)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        if event is AnsweredInLane {
            // NIO ends the output after the bytes already flushed are written.
            if responseFinished(context) { context.close(mode: .output, promise: nil) }
            promise?.succeed(())
            return
        }
        context.triggerUserOutboundEvent(event, promise: promise)
    }

    /// Whether the server's side should end now that this answer is finished.
    private func responseFinished(_ context: ChannelHandlerContext) -> Bool {
        answering = max(0, answering - 1)
        guard answering == 0 && !receiving else { return false }
        if endAfterAnswers { return !ending }
        arm(context, limits.idleTimeout)
        return false
    }

    private func linger(_ context: ChannelHandlerContext) {
        guard !ending else { return }
        arm(context, ConnectionLimits.linger)
        ending = true
        context.read()
    }

    private func arm(_ context: ChannelHandlerContext, _ delay: TimeAmount) {
        guard !ending else { return }
        let due = context.eventLoop.now + delay
        deadline = due
        if let timerFires, timerFires <= due { return }
        schedule(context.eventLoop, context.channel, at: due)
    }
    private func disarm() {
        deadline = nil
    }

    /// Removes the timer itself, for a connection that is gone.
    private func stop() {
        deadline = nil
        timer?.cancel()
        timer = nil
        timerFires = nil
    }

    private func schedule(_ eventLoop: any EventLoop, _ channel: any Channel, at due: NIODeadline) {
        timer?.cancel()
        timerFires = due
        timer = eventLoop.scheduleTask(deadline: due) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.timerFires = nil
            guard let deadline = self.deadline else { return }
            if deadline <= eventLoop.now {
                channel.close(promise: nil)
            } else {
                self.schedule(eventLoop, channel, at: deadline)
            }
        }
    }
}

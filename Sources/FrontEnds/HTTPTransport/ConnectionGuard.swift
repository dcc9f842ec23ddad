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

    public init(maxConnections: Int = 512, headerTimeout: TimeAmount = .seconds(10), bodyTimeout: TimeAmount = .seconds(30),
                idleTimeout: TimeAmount = .seconds(30)) {
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
    }
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
/// dropped, never parsed: closing a socket with its bytes unread resets the connection, and the
/// client could lose the answer before reading it. So the answer is sent, the server's side is
/// ended (the client reads the answer, then the end), and the connection is closed when the
/// client closes its side, or after `linger` at most.
final class SheddingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    static let response: String = {
        let body = #"{"error":{"code":"overloaded","message":"the server has too many open connections; try again shortly.","suggestions":[]}}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }()

    static let linger = TimeAmount.seconds(2)

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
        channel.eventLoop.scheduleTask(in: Self.linger) { channel.close(promise: nil) }
    }
}

/// Closes a connection whose client is too slow: no complete request head within
/// `headerTimeout` of connecting, no complete body within `bodyTimeout` of its head, no next
/// request within `idleTimeout` of the last response. While the server is answering, no
/// deadline runs (the server bounds its own work).
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
        switch unwrapInboundIn(data) {
        case .head:
            receiving = true
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

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responseFinished(context) }
        context.write(data, promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        if event is AnsweredInLane {
            responseFinished(context)
            promise?.succeed(())
            return
        }
        context.triggerUserOutboundEvent(event, promise: promise)
    }

    private func responseFinished(_ context: ChannelHandlerContext) {
        answering = max(0, answering - 1)
        if answering == 0 && !receiving { arm(context, limits.idleTimeout) }
    }

    private func arm(_ context: ChannelHandlerContext, _ delay: TimeAmount) {
        let due = NIODeadline.now() + delay
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
            if deadline <= .now() {
                channel.close(promise: nil)
            } else {
                self.schedule(eventLoop, channel, at: deadline)
            }
        }
    }
}

import NIOCore
import NIOHTTP1

/// Drops the body of each response to a HEAD request, keeping its head (Content-Length too, as
/// RFC 9110 §9.3.2 allows) and its end.
///
/// NIO's own encoder would do it when paired with the request decoder, by matching each
/// response it encodes with the next request the decoder read. `RepeatedRequestLane` answers
/// some requests below the encoder, so that matching slipped by one request for each of them:
/// a later GET was framed as the answer to an earlier HEAD and lost its body while keeping its
/// Content-Length, and the client waited for bytes that never came (Chromium's
/// ERR_CONTENT_LENGTH_MISMATCH once the idle deadline closed the connection). This handler sits
/// above the lane, so it sees exactly the requests the application answers, in their order.
final class HeadResponses: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The methods of requests passed on whose response head has not been written yet: more than
    /// one only when a client pipelines.
    private var methods = CircularBuffer<HTTPMethod>(initialCapacity: 2)
    private var dropping = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { methods.append(head.method) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            // An interim answer (100 Continue) is followed by the final one, which is the answer.
            let code = head.status.code
            if !(100..<200).contains(code) || code == 101 { dropping = methods.popFirst() == .HEAD }
        case .body:
            if dropping {
                promise?.succeed(())
                return
            }
        case .end:
            dropping = false
        }
        context.write(data, promise: promise)
    }
}

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// Ends a connection when nothing more will come of it: after the answer to a request that asked for no keep-alive
/// (HTTP/1.0 without `Connection: keep-alive`, or `Connection: close`), and, while the endpoint is busy
/// (`EndpointLoad.isBusy`), once it has had no request under way for `busyIdleTimeout`.
///
/// It sits right after NIO's HTTP/1 decoder, where the request's HTTP version is still known: Hummingbird's
/// version-free request types lose it, so an HTTP/1.0 request was taken as keep-alive and its connection held until
/// the 30 s idle timeout (issue 32 §2). A connection closed for being idle while busy is reset (`SO_LINGER` 0, as
/// nginx's `reset_timedout_connection`): its descriptor and socket buffers are freed at once.
final class EndpointConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let load: EndpointLoad
    private let busyIdleTimeout: TimeAmount
    /// The requests read and not yet answered, oldest first: their version, and whether the connection ends with
    /// the answer.
    private var unanswered: [(version: HTTPVersion, closes: Bool)] = []
    /// Since when no request has been under way (the connection's start, or the end of the last answer).
    private var idleSince = NIODeadline.now()
    private var check: Scheduled<Void>?
    private var closing = false

    init(load: EndpointLoad) {
        self.load = load
        self.busyIdleTimeout = TimeAmount(load.busyIdleTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        idleSince = .now()
        schedule(context: context, at: idleSince + busyIdleTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let closes = !head.isKeepAlive
        unanswered.append((head.version, closes))
        // Hummingbird ends the connection after the answer only for `Connection: close`; say it for HTTP/1.0 too.
        if closes { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard let request = unanswered.first, request.closes else { break }
            // An HTTP/1.0 client reads no chunked body: answered as HTTP/1.0, a body of unknown length ends with the
            // connection (NIO's encoder frames it so).
            if request.version == .http1_0 { head.version = .http1_0 }
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .body:
            break
        case .end:
            guard !unanswered.isEmpty else { break }
            let request = unanswered.removeFirst()
            if unanswered.isEmpty { idleSince = .now() }
            guard request.closes else { break }
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            let loopContext = context
            written.futureResult.assumeIsolated().whenComplete { _ in loopContext.close(promise: nil) }
            return
        }
        context.write(data, promise: promise)
    }

    private func schedule(context: ChannelHandlerContext, at deadline: NIODeadline) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            self.check = nil
            self.checkIdle(context: context)
        }
    }

    /// Closes the connection when the endpoint is busy and it has been idle `busyIdleTimeout`; else looks again
    /// when it could next be due (no sooner than half the timeout from now, so an idle connection costs little).
    private func checkIdle(context: ChannelHandlerContext) {
        guard context.channel.isActive, !closing else { return }
        let now = NIODeadline.now()
        let idle = unanswered.isEmpty
        if idle, now - idleSince >= busyIdleTimeout, load.isBusy {
            shed(context: context)
            return
        }
        let due = idle ? idleSince + busyIdleTimeout : now + busyIdleTimeout
        schedule(context: context, at: max(due, now + .nanoseconds(busyIdleTimeout.nanoseconds / 2)))
    }

    private func shed(context: ChannelHandlerContext) {
        closing = true
        load.noteShed()
        guard let provider = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        let loopContext = context
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            loopContext.close(promise: nil)
        }
    }
}

/// Hummingbird's HTTP/1 channel with an `EndpointConnectionHandler` right after NIO's request decoder.
struct EndpointChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let load: EndpointLoad

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let load = load
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(EndpointConnectionHandler(load: load), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

import NIOCore
import NIOHTTP1
import NIOTLS

/// Answers requests from a route table; one instance per HTTP/1.1 connection or HTTP/2 stream.
final class FixtureRouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The routes by path (the first route of a path wins).
    private let routes: [String: FixtureRoute]
    private let recorder: FixtureRecorder
    private let httpVersion: String
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(routes: [String: FixtureRoute], recorder: FixtureRecorder, httpVersion: String) {
        self.routes = routes
        self.recorder = recorder
        self.httpVersion = httpVersion
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let request = RecordedRequest(
                method: head.method.rawValue,
                uri: head.uri,
                headers: head.headers.map { ($0.name, $0.value) },
                body: body,
                httpVersion: httpVersion
            )
            recorder.update { $0.requests.append(request) }
            let response =
                routes[request.path]?.respond(request)
                ?? .text("no route for \(request.path)\n", status: 404)
            answer(request: request, with: response, context: context)
        }
    }

    private func answer(request: RecordedRequest, with response: FixtureResponse, context: ChannelHandlerContext) {
        guard !response.neverAnswers else { return }
        let loop = context.eventLoop.assumeIsolated()
        if response.delay > .zero {
            let parts = response.delay.components
            let nanos = parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
            loop.scheduleTask(in: .nanoseconds(nanos)) {
                self.write(response, method: request.method, context: context)
            }
        } else {
            write(response, method: request.method, context: context)
        }
    }

    private func write(_ response: FixtureResponse, method: String, context: ChannelHandlerContext) {
        if let raw = response.rawHTTP1 {
            writeRaw(raw, context: context)
            return
        }
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        switch response.body {
        case .bytes(let bytes):
            headers.replaceOrAdd(name: "content-length", value: String(bytes.count))
        case .chunked:
            // No length: NIO's HTTP/1.1 encoder then uses chunked transfer encoding.
            break
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if method != "HEAD" {
            switch response.body {
            case .bytes(let bytes):
                if !bytes.isEmpty {
                    context.write(
                        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))),
                        promise: nil)
                }
            case .chunked(let totalBytes, let chunkBytes):
                var sent = 0
                let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: max(1, chunkBytes))
                while sent < totalBytes {
                    let size = min(chunk.count, totalBytes - sent)
                    let buffer = context.channel.allocator.buffer(bytes: chunk[..<size])
                    context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                    sent += size
                }
            }
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

extension FixtureRouteHandler {
    /// Writes bytes under the HTTP codec: through the handler just above TLS, so they are encrypted but not
    /// encoded. On an HTTP/2 stream there is no such handler, and the stream is reset instead.
    private func writeRaw(_ bytes: [UInt8], context: ChannelHandlerContext) {
        guard let tls = try? context.channel.pipeline.syncOperations.context(handlerType: HandshakeObserver.self)
        else {
            context.close(promise: nil)
            return
        }
        tls.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }
}

@available(*, unavailable)
extension FixtureRouteHandler: Sendable {}

/// Counts TLS handshakes (and the protocol ALPN chose) for "one handshake per host" assertions.
final class HandshakeObserver: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let recorder: FixtureRecorder

    init(recorder: FixtureRecorder) {
        self.recorder = recorder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted(let negotiated) = tlsEvent {
            recorder.update {
                $0.tlsHandshakesCompleted += 1
                $0.negotiatedProtocols.append(negotiated ?? "none")
            }
        }
        context.fireUserInboundEventTriggered(event)
    }
}

@available(*, unavailable)
extension HandshakeObserver: Sendable {}

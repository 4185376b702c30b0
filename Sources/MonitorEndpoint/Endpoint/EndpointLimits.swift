import Hummingbird
import HummingbirdCore
import NIOCore

/// How much of the daemon's resources the endpoint may hold, so that clients can never starve the checks.
///
/// Idle local connections once used up every descriptor of the process and every domain was then reported broken
/// ("open port 443 to the internet"). So a connection that sends nothing is closed after `idleTimeout`, no more than
/// `maximumConnections` are open at once (more wait in the listen backlog, unaccepted), and requests are small:
/// only `POST /api/v1/silences` reads a body, so a declared body above `maximumBodyBytes` (or one of no declared
/// length) is refused with 413, and headers are capped. Once half the connections it can take are open, a connection
/// without a request under way is closed after `busyIdleTimeout` instead (`EndpointLoad`).
package struct EndpointLimits: Sendable, Hashable {
    /// How long a connection may stay without a request before the server closes it.
    package var idleTimeout: Duration
    /// How long a connection may stay without a request while the endpoint is busy (half its slots taken): long
    /// enough for any client that means to send one, short enough that `/healthz` gets a slot within a second through
    /// a flood of idle connections.
    package var busyIdleTimeout: Duration
    /// The most connections served at once (a burst of connects accepted in one read may pass it by a few).
    package var maximumConnections: Int
    /// The largest request body accepted: 16 KiB holds a silence naming a few hundred domains.
    package var maximumBodyBytes: Int
    /// The largest header block, in bytes, and the most header fields.
    package var maximumHeaderBytes: Int
    package var maximumHeaderFields: Int
    /// File descriptors the process keeps free: no connection is accepted below it (one is, when none is open), so
    /// connections can never use up the descriptors that checks and the runtime need (`EndpointConnectionGate`).
    package var descriptorReserve: Int

    package init(
        idleTimeout: Duration = .seconds(30), maximumConnections: Int = 64, maximumBodyBytes: Int = 16 * 1024,
        maximumHeaderBytes: Int = 16 * 1024, maximumHeaderFields: Int = 64, descriptorReserve: Int = 32,
        busyIdleTimeout: Duration = .milliseconds(500)
    ) {
        self.idleTimeout = idleTimeout
        self.busyIdleTimeout = busyIdleTimeout
        self.maximumConnections = maximumConnections
        self.descriptorReserve = descriptorReserve
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderFields = maximumHeaderFields
    }

    /// The daemon's limits: 64 connections at most (the unit's `LimitNOFILE` counts them in), 30 s idle.
    package static let standard = EndpointLimits()

    /// Hummingbird's HTTP/1 server with the idle timeout and header caps, each connection watched by an
    /// `EndpointConnectionHandler` sharing `load`.
    func server(load: EndpointLoad) -> HTTPServerBuilder {
        let configuration = HTTP1Channel.Configuration(
            idleTimeout: TimeAmount(idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: maximumHeaderBytes, maxHeaderListSize: maximumHeaderBytes,
                maxHeaderFieldCount: maximumHeaderFields))
        return HTTPServerBuilder { responder in
            EndpointChannel(http1: HTTP1Channel(responder: responder, configuration: configuration), load: load)
        }
    }
}

/// Refuses a request whose declared body is larger than the limit (413), before any route reads it.
struct RequestSizeMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximumBodyBytes: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        let chunked = request.headers[.transferEncoding] != nil
        if chunked || (declared ?? 0) > maximumBodyBytes {
            return Response(
                status: .contentTooLarge,
                headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string:
                            "request body too large: at most \(maximumBodyBytes) bytes are accepted\n"
                    )))
        }
        return try await next(request, context)
    }
}

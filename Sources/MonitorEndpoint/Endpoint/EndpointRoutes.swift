import Hummingbird
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore
import NIOCore

/// The endpoint's routes: `/metrics`, `/healthz`, `/status`, the status pages `/` and `/domains/NAME` with their
/// style sheet, the API under `/api/v1/` and the badges (`EndpointRoutes+API`); Hummingbird's router answers 404 for
/// every other path.
enum EndpointRoutes {
    /// The content type Prometheus expects for the text exposition format.
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"
    static let htmlContentType = "text/html; charset=utf-8"

    /// Nothing but this origin's style sheet may load: no script at all, no inline style, no frame; a form may
    /// only be sent to this origin (the overview's filter).
    static let contentSecurityPolicy: ContentSecurityPolicy = [
        .defaultSrc(.none), .styleSrc(.self), .imgSrc(.self), .baseURI(.none), .formAction(.self),
        .frameAncestors(.none),
    ]

    /// The router; `listen` decides whether the API's writes need credentials (not on loopback; `nil`: they do).
    static func router(
        sources: EndpointSources, logger: Logger, limits: EndpointLimits = .standard, listen: ListenAddress? = nil
    ) -> Router<EndpointRequestContext> {
        // HEAD answers as GET without a body on every route, /healthz included (RFC 9110 §9.3.2; issue 26 §4).
        let router = Router(context: EndpointRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(
            middleware: HostGuardMiddleware(listenHost: listen?.host ?? "localhost", configuredHosts: sources.hosts))
        router.add(middleware: RequestSizeMiddleware(maximumBodyBytes: limits.maximumBodyBytes))
        router.add(middleware: ContentSecurityMiddleware(contentSecurityPolicy: contentSecurityPolicy))
        router.add(middleware: ReferrerPolicyMiddleware())
        router.add(middleware: BasicAuthMiddleware(users: sources.basicAuth))
        router.get("/") { request, _ in
            do {
                let query = DomainListing.Query(pageParameters: request.uri.queryParameters)
                return response(.ok, contentType: htmlContentType, body: try await sources.overview(query).html())
            } catch {
                return failure("status page", error: error, logger: logger)
            }
        }
        router.get("/domains/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            do {
                guard let page = try await sources.domainPage(name) else {
                    return response(
                        .notFound, contentType: "text/plain; charset=utf-8",
                        body: Array("\(name.prefix(253)) is not a configured domain\n".utf8))
                }
                return response(.ok, contentType: htmlContentType, body: page.html())
            } catch {
                return failure("domain page", error: error, logger: logger)
            }
        }
        router.get(RouterPath(PageStyle.path)) { _, _ in
            response(.ok, contentType: "text/css; charset=utf-8", body: PageStyle.css)
        }
        router.get("/metrics") { _, _ in
            do {
                // A text of one piece (about 1,000 domains) goes out whole, with its length; a longer one a piece
                // at a time as it is written, chunked: the whole text of 100,000 domains is 24 MB.
                var chunks = try await sources.metrics().prometheusChunks()
                let headers: HTTPFields = [.contentType: metricsContentType, .cacheControl: "no-store"]
                let first = chunks.next() ?? ByteBuffer()
                guard let second = chunks.next() else {
                    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: first))
                }
                return Response(
                    status: .ok, headers: headers,
                    body: ResponseBody { [chunks] writer in
                        try await writer.write(first)
                        try await writer.write(second)
                        for chunk in IteratorSequence(chunks) { try await writer.write(chunk) }
                        try await writer.finish(nil)
                    })
            } catch {
                return failure("metrics", error: error, logger: logger)
            }
        }
        router.get("/healthz") { _, _ in
            switch await sources.health() {
            case .healthy:
                return response(.ok, contentType: "text/plain; charset=utf-8", body: Array("ok\n".utf8))
            case .unhealthy(let reason):
                let line = String(reason.map { $0.isNewline ? " " : $0 })
                return response(
                    .serviceUnavailable, contentType: "text/plain; charset=utf-8", body: Array("\(line)\n".utf8))
            }
        }
        router.get("/status") { _, _ in
            do {
                return response(.ok, contentType: "application/json", body: try await sources.status())
            } catch {
                return failure("status", error: error, logger: logger)
            }
        }
        addAPI(to: router, sources: sources, listen: listen, logger: logger)
        return router
    }

    static func response(_ status: HTTPResponse.Status, contentType: String, body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static func response(_ status: HTTPResponse.Status, contentType: String, body: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A 500 whose body names the failed source; the error itself goes to the log, not to the client.
    static func failure(_ source: String, error: any Error, logger: Logger) -> Response {
        logger.error("endpoint could not read \(source)", metadata: ["error": "\(error)"])
        return response(
            .internalServerError, contentType: "text/plain; charset=utf-8",
            body: Array("\(source) unavailable; see the daemon's log\n".utf8))
    }
}

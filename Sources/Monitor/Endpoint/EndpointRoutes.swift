import Hummingbird
import Logging
import NIOCore

/// The endpoint's three routes; Hummingbird's router answers 404 for every other path.
enum EndpointRoutes {
    /// The content type Prometheus expects for the text exposition format.
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    static func router(sources: EndpointSources, logger: Logger) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/metrics") { _, _ in
            do {
                let text = try await sources.metrics().prometheusText()
                return response(.ok, contentType: metricsContentType, body: Array(text.utf8))
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
        return router
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

import Foundation
import Hummingbird
import MonitorCore
import MonitorEvaluation
import MonitorStore
import NIOCore

/// `GET /badge/{domain}.svg`: the domain's verdict as a badge, cached for a minute by whoever embeds it.
extension APIHandlers {
    static let badgeContentType = "image/svg+xml; charset=utf-8"

    func badge(_ context: EndpointRequestContext, api: APISources) async throws(APIError) -> Response {
        let file = Self.pathParameter(context, "file")
        guard file.hasSuffix(".svg"), let name = try? DomainName.normalize(String(file.dropLast(4))),
            await api.isConfigured(name)
        else { return Self.badgeResponse(.notFound, Badge.notMonitored) }
        let state = try await read("badge") { try await api.store.reader.domainState(name) }
        return Self.badgeResponse(.ok, Badge.domain(name, verdict: ListedVerdict(state?.verdict)))
    }

    /// The SVG with `Cache-Control: max-age=60`: a README's viewers ask at most once a minute each.
    static func badgeResponse(_ status: HTTPResponse.Status, _ badge: Badge) -> Response {
        Response(
            status: status, headers: [.contentType: badgeContentType, .cacheControl: "max-age=60"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: badge.svg)))
    }
}

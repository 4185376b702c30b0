import Hummingbird
import MonitorCore
import NIOCore

/// Refuses what `RequestHostPolicy` refuses, before any other work (a password check costs CPU): 421 for a `Host`
/// that is not this endpoint's, 403 for a write from another site's page. Every route, `/healthz` included.
///
/// The configured names are asked for on every request, like the users of `basic_auth_file`, so the policy always
/// matches the configuration the daemon runs with.
struct HostGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let listenHost: String
    let configuredHosts: @Sendable () async -> [String]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let policy = RequestHostPolicy(listenHost: listenHost, configured: await configuredHosts())
        let isWrite = request.method != .get && request.method != .head
        switch policy.judge(host: request.head.authority, origin: request.headers[.origin], isWrite: isWrite) {
        case .allowed:
            return try await next(request, context)
        case .unknownHost(let host):
            return Self.refusal(
                .misdirectedRequest,
                "the Host \(Self.quoted(host)) is not a name of this endpoint: use its address or localhost, or add "
                    + "the name to endpoint.hosts in the configuration\n")
        case .foreignOrigin(let origin):
            return Self.refusal(
                .forbidden,
                "a write from the page at \(Self.quoted(origin)) is refused: only this endpoint's own pages and "
                    + "clients without an Origin may write\n")
        }
    }

    /// The header's value, at most 100 characters, printable ASCII only: it is the sender's text.
    static func quoted(_ value: String) -> String {
        let printable = value.unicodeScalars.prefix(100).map {
            $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
        }
        return "'" + String(printable) + (value.unicodeScalars.count > 100 ? "…'" : "'")
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}

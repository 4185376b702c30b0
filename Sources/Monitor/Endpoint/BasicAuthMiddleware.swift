import Foundation
import Hummingbird
import MonitorCore
import NIOCore

/// HTTP Basic authentication against `endpoint.basic_auth_file` for every route except `/healthz`, which probes
/// (systemd, load balancers) must reach without credentials. Without a file every route is open.
///
/// The users are asked for on every request, so a reload (SIGHUP) that changes the file takes effect at once.
struct BasicAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let users: @Sendable () async -> BasicAuthUsers?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path != "/healthz", let users = await users() else {
            return try await next(request, context)
        }
        guard let (user, password) = Self.credentials(request.headers[.authorization]) else {
            return Self.unauthorized
        }
        let hash = users.hashes[user]
        // An unknown user costs one hash as well, so the answer's timing does not tell which users exist.
        let valid = await PasswordHash.verify(password, hash: hash ?? PasswordHash.decoy) && hash != nil
        return valid ? try await next(request, context) : Self.unauthorized
    }

    /// User and password of an `Authorization: Basic …` header.
    static func credentials(_ header: String?) -> (String, String)? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        guard let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    static var unauthorized: Response {
        Response(
            status: .unauthorized,
            headers: [
                .wwwAuthenticate: #"Basic realm="aasa-monitor", charset="UTF-8""#,
                .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "credentials required (endpoint.basic_auth_file)\n")))
    }
}

/// `Referrer-Policy: no-referrer` on every answer: a link followed from the page tells nobody where it came from.
struct ReferrerPolicyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }
}

import Foundation
import Hummingbird
import MonitorCore
import NIOCore

/// HTTP Basic authentication against `endpoint.basic_auth_file` for every route except `/healthz`, which probes
/// (systemd, load balancers) must reach without credentials. Without a file every route is open.
///
/// The users are asked for on every request, so a reload (SIGHUP) that changes the file takes effect at once.
/// Checks run off the event loop, one per core at most (`PasswordHash`); a verified header is remembered briefly
/// and a client with too many failures is refused without a check (`AuthAttempts`); and an unknown user is checked
/// against a real user's hash, so it costs what a known user of that scheme costs (issue 26 §4: 4.3 ms against
/// 220 ms told which users exist).
struct BasicAuthMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let users: @Sendable () async -> BasicAuthUsers?
    let attempts = AuthAttempts()

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path != "/healthz", let users = await users() else {
            return try await next(request, context)
        }
        let header = request.headers[.authorization]
        guard let header, let (user, password) = Self.credentials(header) else { return Self.unauthorized }
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        let hash = users.hashes[user]
        let cacheKey = hash.map { attempts.key(header: header, storedHash: $0) }
        if let cacheKey, attempts.isVerified(cacheKey) { return try await next(request, context) }
        guard !attempts.isLimited(client) else { return Self.tooManyAttempts }
        let checked = await PasswordHash.verify(
            password, hash: hash ?? Self.decoy(for: user, in: users), admits: { !attempts.isLimited(client) })
        guard let checked else { return Self.tooManyAttempts }
        let valid = checked && hash != nil
        guard valid, let cacheKey else {
            attempts.recordFailure(client)
            return Self.unauthorized
        }
        attempts.rememberVerified(cacheKey)
        return try await next(request, context)
    }

    /// The hash an unknown `user` is checked against: one of the file's own, picked by the name (so a name always
    /// costs the same), whose scheme and cost are those of a real user. No password can pass with it: the check's
    /// result is ignored for an unknown user.
    static func decoy(for user: String, in users: BasicAuthUsers) -> String {
        let hashes = users.hashes.values.sorted()
        guard !hashes.isEmpty else { return PasswordHash.decoy }
        let index = user.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return hashes[Int(index % UInt64(hashes.count))]
    }

    /// User and password of an `Authorization: Basic …` header.
    static func credentials(_ header: String?) -> (String, String)? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        guard let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            !data.contains(0),  // "secret\0junk" would reach crypt(3) as "secret"
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// 429 for a client over its failed attempts; it says when to retry.
    static var tooManyAttempts: Response {
        Response(
            status: .tooManyRequests,
            headers: [
                .retryAfter: String(AuthAttempts.failureWindow.components.seconds),
                .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
            ],
            body: ResponseBody(
                byteBuffer: ByteBuffer(string: "too many failed logins from this address; retry later\n")))
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

import Foundation
import Hummingbird
import MonitorCore
import MonitorEvaluation
import NIOCore

/// HTTP Basic authentication against `endpoint.basic_auth_file` for every route except `/healthz`, which probes
/// (systemd, load balancers) must reach without credentials. Without a file every route is open.
///
/// The users are asked for on every request, so a reload (SIGHUP) that changes the file takes effect at once.
/// Checks run off the event loop in a bounded line (`PasswordCheckLine`): one per core, one core kept for
/// credentials that verified lately, a short line for the rest and 429 at once beyond it, so a flood from many
/// addresses holds neither a known scraper nor the daemon's cores (issue 32 §3). A verified header is remembered
/// briefly, and an address with too many failures for a user name is refused without a check, unless its
/// credential verified lately (`AuthAttempts`). An unknown user is checked against a real user's hash, so it
/// costs what a known user of that scheme costs (issue 26 §4: 4.3 ms against 220 ms told which users exist).
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
        let hash = users.hashes[user]
        let cacheKey = hash.map { attempts.key(header: header, storedHash: $0) }
        if let cacheKey, attempts.isVerified(cacheKey) { return try await next(request, context) }
        let credential = hash.map { attempts.credentialKey(user: user, password: password, storedHash: $0) }
        // Known: this very password verified for this user lately. Its check goes ahead and is never locked out.
        let known = credential.map { attempts.isKnown($0) } ?? false
        let failureKey = attempts.failureKey(client: context.remoteAddress?.ipAddress ?? "unknown", user: user)
        guard known || !attempts.isLimited(failureKey) else { return Self.tooManyAttempts }
        let outcome = await PasswordHash.verify(
            password, hash: hash ?? Self.decoy(for: user, in: users), lane: known ? .known : .open,
            admits: { known || !attempts.isLimited(failureKey) })
        switch outcome {
        case .busy: return Self.busy
        case .limited: return Self.tooManyAttempts
        case .checked(let matched):
            guard matched, let cacheKey, let credential else {
                attempts.recordFailure(failureKey)
                return Self.unauthorized
            }
            attempts.rememberVerified(cacheKey, credential: credential)
            return try await next(request, context)
        }
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

    /// 429 for an address over its failed attempts for a user name; it says when to retry.
    static var tooManyAttempts: Response {
        tooManyRequests(
            retryAfter: AuthAttempts.failureWindow,
            "too many failed logins for this user from this address; retry later\n")
    }

    /// 429 for an attempt that found the line of password checks full (`PasswordCheckLine`); checked at once,
    /// it would have waited behind others' checks.
    static var busy: Response {
        tooManyRequests(
            retryAfter: PasswordCheckLine.busyRetryAfter,
            "too many password checks under way; retry in a second (endpoint.basic_auth_file)\n")
    }

    static func tooManyRequests(retryAfter: Duration, _ text: String) -> Response {
        Response(
            status: .tooManyRequests,
            headers: [
                .retryAfter: String(retryAfter.components.seconds),
                .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
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

import Foundation
import MonitorCore
import MonitorEvaluation

/// Which `Host` and `Origin` a request to the endpoint may carry: the defence against DNS rebinding.
///
/// A web page whose name rebinds to 127.0.0.1 reaches a loopback endpoint from the operator's browser as a
/// same-origin request: no preflight, and its `Host` is the attacker's name. So a request is served only when its
/// `Host` is an IP address (a page cannot rebind an address), `localhost`, the listen host or a name of
/// `endpoint.hosts`; and a write (any method but GET and HEAD) that carries an `Origin` only when that origin is one
/// of those names or the request's own host, which refuses cross-site form posts too. A request without `Host`
/// (HTTP/1.0, probes) is no browser's and is served. Pure: the middleware hands it the headers.
struct RequestHostPolicy: Sendable, Hashable {
    /// Lower-case names beside IP addresses: `localhost`, the listen host, `endpoint.hosts`.
    let names: Set<String>

    init(listenHost: String, configured: [String]) {
        var names: Set<String> = ["localhost"]
        names.insert(Self.canonical(listenHost))
        for name in configured { names.insert(Self.canonical(name)) }
        self.names = names
    }

    enum Verdict: Sendable, Hashable {
        case allowed
        /// 421: the request names a host that is not this endpoint's.
        case unknownHost(String)
        /// 403: a write sent by a page of another site.
        case foreignOrigin(String)
    }

    /// The verdict on a request with `host` (the `Host` header or HTTP/2 `:authority`) and `origin` headers.
    func judge(host: String?, origin: String?, isWrite: Bool) -> Verdict {
        var requestHost: String?
        if let host {
            guard let name = Self.hostName(ofAuthority: host), isAllowed(name) else { return .unknownHost(host) }
            requestHost = name
        }
        guard isWrite, let origin else { return .allowed }
        guard let name = Self.hostName(ofOrigin: origin), name == requestHost || names.contains(name) else {
            return .foreignOrigin(origin)
        }
        return .allowed
    }

    private func isAllowed(_ name: String) -> Bool {
        names.contains(name) || Self.isIPv4(name) || name.contains(":")
    }

    /// The host of `host[:port]` or `[v6]:port`, lower-case and without a trailing dot; `nil` when malformed.
    static func hostName(ofAuthority authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(isDigit)) else {
                return nil
            }
            let inner = authority[authority.index(after: authority.startIndex)..<close]
            guard inner.contains(":"), inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return inner.lowercased()
        }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(isDigit) { return nil }
        let name = canonical(String(parts[0]))
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        return name
    }

    /// The host of an `Origin` (`scheme://host[:port]`); `nil` for `null` and anything else.
    static func hostName(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authority = origin[separator.upperBound...]
        guard !authority.contains("/"), !authority.contains("@") else { return nil }
        return hostName(ofAuthority: String(authority))
    }

    /// Dotted-quad IPv4, the only form a browser writes in `Host` (it rewrites `0x7f.1` to `127.0.0.1`).
    static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(isDigit) && (Int(part) ?? 256) <= 255
                    && (part.count == 1 || part.first != "0")
            }
    }

    private static func canonical(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name
    }

    private static func isDigit(_ character: Character) -> Bool { character >= "0" && character <= "9" }
}

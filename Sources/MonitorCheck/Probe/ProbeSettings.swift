import AASA
import Foundation
import HTTPEngine

/// How the probe fetches: where Apple's CDN is, how long to wait, where to connect, whom to trust, and how it
/// identifies itself.
///
/// The defaults copy Apple's fetcher: its user agent, its 128 KiB cap and its CDN. `connectTo` and `trust` apply to
/// the origin and the CDN alike, so a staging setup (or a test) can point both at local servers and keep strict TLS.
package struct ProbeSettings: Sendable, Hashable {
    /// Apple's public CDN for associated-domain files; the domain is appended to it.
    package static let defaultCDNBaseURL = "https://app-site-association.cdn-apple.com/a/v1/"
    /// What Apple's CDN fetcher sends as its user agent.
    package static let appleFetcherUserAgent = "AASA-Bot/1.0.0"

    /// The CDN base URL; the CDN request is `<cdnBaseURL><domain>`.
    package var cdnBaseURL: String
    /// The limit on each request, connection set-up included; one domain takes at most about twice this.
    package var timeout: Duration
    /// curl-style host mappings for origin and CDN requests.
    package var connectTo: [ConnectToRule]
    /// Which certificate authorities to trust, for origin and CDN requests.
    package var trust: TrustConfiguration
    /// The user agent of the request whose answer counts: Apple's fetcher's.
    package var appleUserAgent: String
    /// The user agent of the comparison request, so that a WAF or bot rule treating Apple differently shows.
    package var plainUserAgent: String
    /// The largest body accepted; Apple stops reading after 131072 bytes, so one byte more is `too_large`.
    package var maxBodyBytes: Int
    /// The most domains probed at once by `CheckRunner.stream` (`check`).
    package var concurrency: Int
    /// How long Apple's fetcher waits for an origin (`http.apple_budget`): an answer slower than this is not
    /// compared with the plain user agent's (`DomainProbe.comparesUserAgents`).
    package var appleBudget: Duration

    /// Creates settings; `version` goes into the plain user agent (`aasa-monitor/<version>`).
    package init(
        version: String,
        cdnBaseURL: String = ProbeSettings.defaultCDNBaseURL,
        timeout: Duration = .seconds(10),
        connectTo: [ConnectToRule] = [],
        trust: TrustConfiguration = .system,
        maxBodyBytes: Int = AASAParser.maximumBodySize,
        concurrency: Int = 32,
        appleBudget: Duration = .seconds(5)
    ) {
        self.cdnBaseURL = cdnBaseURL
        self.timeout = timeout
        self.connectTo = connectTo
        self.trust = trust
        self.appleUserAgent = Self.appleFetcherUserAgent
        self.plainUserAgent = "aasa-monitor/\(version)"
        self.maxBodyBytes = maxBodyBytes
        self.concurrency = max(1, concurrency)
        self.appleBudget = appleBudget
    }

    /// The engine these settings want: room for every domain's four requests at the configured concurrency, and
    /// a connection cache (which counts connections in use too) for what can be reused: each domain in flight
    /// keeps its origin connection between its first request and the follow-ups, Apple's CDN keeps one, and as
    /// many again for an HTTP/1.1 origin's second connection or one its plain request left idle. At `concurrency`
    /// + 1, libcurl closed some domains' connections between their requests (1.06 handshakes per domain over
    /// 10,000 domains; 1.01 at twice that). An origin connection is never reused by the next check (it reads the
    /// certificate on a fresh one), and libcurl walks every cached connection whenever a transfer ends: a cache of
    /// 128 idle origins cost about a fifth of `check`'s CPU over 10,000 domains.
    package var engineConfiguration: CurlEngine.Configuration {
        CurlEngine.Configuration(
            maxConcurrentTransfers: max(16, concurrency * 4), maxIdleConnections: concurrency * 2 + 1)
    }

    /// The origin's `.well-known` URL for `domain`.
    package func wellKnownURL(for domain: String) -> String {
        "https://\(domain)/.well-known/apple-app-site-association"
    }

    /// The origin's legacy root URL for `domain`.
    package func rootURL(for domain: String) -> String {
        "https://\(domain)/apple-app-site-association"
    }

    /// The CDN URL for `domain`: the base with exactly one `/` before the domain.
    package func cdnURL(for domain: String) -> String {
        cdnBaseURL.hasSuffix("/") ? cdnBaseURL + domain : cdnBaseURL + "/" + domain
    }

    /// Whether a `connect-to` rule sends requests for `url` elsewhere (then a private address is expected).
    package func routesThroughConnectTo(_ url: String) -> Bool {
        guard !connectTo.isEmpty else { return false }
        guard let components = URLComponents(string: url), let host = components.host else { return false }
        let port = components.port ?? (components.scheme?.lowercased() == "http" ? 80 : 443)
        return routesThroughConnectTo(host: host, port: port)
    }

    /// Whether a `connect-to` rule sends requests for `host` on `port` elsewhere; no URL to parse.
    package func routesThroughConnectTo(host: String, port: Int) -> Bool {
        !connectTo.isEmpty && ConnectToRule.firstMatch(in: connectTo, host: host, port: port) != nil
    }

    /// A request for `url` with these settings: no redirects followed, the body cap, strict TLS, no proxy.
    ///
    /// Only Apple's CDN waits for a multiplexed connection (`waitsForMultiplexing`): many streams to one host. An
    /// origin never does, so one stalled origin cannot hold up another request. `closesConnection` marks a domain's
    /// last origin request: its next check opens a fresh connection anyway (`readsCertificate`).
    func request(
        url: String, userAgent: String, readsCertificate: Bool = false, waitsForMultiplexing: Bool = false,
        closesConnection: Bool = false
    ) -> HTTPRequest {
        var request = HTTPRequest(
            url: url,
            userAgent: userAgent,
            timeout: timeout,
            connectTimeout: timeout,
            maxBodyBytes: maxBodyBytes,
            connectTo: connectTo,
            trust: trust,
            readsCertificate: readsCertificate,
            describesRejectedCertificate: readsCertificate,
            waitsForMultiplexing: waitsForMultiplexing
        )
        request.closesConnection = closesConnection
        return request
    }
}

/// Everything the engine needs to make one HTTP request; a plain value, so it can cross threads.
///
/// The defaults are the careful ones: HTTPS only, redirects reported but never followed, certificates verified.
///
/// ```swift
/// var request = HTTPRequest(url: "https://example.com/.well-known/apple-app-site-association")
/// request.maxBodyBytes = 131_072
/// request.connectTo = [try ConnectToRule(parsing: "example.com:443:127.0.0.1:8443")]
/// let response = try await engine.perform(request)
/// ```
public struct HTTPRequest: Sendable, Hashable {
    /// The absolute URL to fetch.
    public var url: String
    /// The method, for example `GET`, `HEAD` or `POST`.
    public var method: String
    /// Extra request header fields; libcurl adds `Host`, and `Content-Length` when there is a body.
    public var headers: HTTPHeaders
    /// The request body, sent when non-nil (webhook payloads).
    public var body: [UInt8]?
    /// The `User-Agent` value; `nil` sends none.
    public var userAgent: String?
    /// The limit on the whole transfer, connection set-up included.
    public var timeout: Duration
    /// The limit on DNS, TCP and TLS set-up.
    public var connectTimeout: Duration
    /// The largest response body accepted; a larger one fails with `too_large` while it is still arriving.
    ///
    /// Finite by default (`defaultMaxBodyBytes`): every server is outside input, and a webhook receiver or a
    /// misconfigured origin streaming without end must not exhaust the daemon's memory. `nil` lifts the limit.
    public var maxBodyBytes: Int?
    /// 1 MiB: far above any AASA file (128 KiB) or webhook answer we read.
    public static let defaultMaxBodyBytes = 1 << 20
    /// Refuse any scheme but `https` (libcurl's `CURLOPT_PROTOCOLS_STR`).
    public var httpsOnly: Bool
    /// curl-style host mappings; the first rule that matches the URL's host and port applies.
    public var connectTo: [ConnectToRule]
    /// Which certificate authorities to trust.
    public var trust: TrustConfiguration
    /// Read the server's certificate into `HTTPResponse.certificate`.
    ///
    /// Forces a new connection without TLS session resumption, so the certificate is the one a full handshake
    /// verified now (as a device fetching afresh sees it), not one from a connection or session opened earlier:
    /// use it for the first request to a host, not for every request.
    public var readsCertificate: Bool
    /// When verification fails because the certificate is expired, not yet valid, untrusted or for another host
    /// name, make a second, non-verifying handshake whose only purpose is to describe the certificate in the failure.
    ///
    /// It connects afresh, sends no HTTP request (so none of this request's headers or body reach a server that
    /// failed verification), closes the connection afterwards and runs within what is left of `timeout`.
    public var describesRejectedCertificate: Bool
    /// Which HTTP version to negotiate.
    public var httpVersion: HTTPVersionPreference
    /// Wait for a connection to the same host that may multiplex (HTTP/2) instead of opening another one
    /// (`CURLOPT_PIPEWAIT`).
    ///
    /// On for Apple's CDN (one host, many streams). Off by default: a transfer that waits stays behind a connection
    /// that has not answered yet, so an origin or a webhook receiver that stalls would hold up every request
    /// queued behind it.
    public var waitsForMultiplexing: Bool
    /// Close the connection once this request (and any other still using it) is done, instead of keeping it idle
    /// for reuse (`CURLOPT_FORBID_REUSE`).
    ///
    /// For the last requests to a host that will not be asked again soon: libcurl walks every cached connection
    /// each time a transfer ends (and again whenever the cache is over its limit), so idle connections nobody will
    /// reuse cost CPU on every later transfer, besides a socket and TLS buffers each.
    public var closesConnection = false
    /// A proxy URL (`http://proxy.internal:3128`), or `nil` for a direct connection whatever the environment says.
    ///
    /// libcurl would otherwise honour `https_proxy` and `ALL_PROXY` from the environment. Apple's fetcher does not
    /// go through our proxy, and a proxy would hide what the probe must see: the origin's own address (private
    /// addresses are refused by Apple), its certificate and its answer to Apple's user agent.
    public var proxy: String?
    /// Addresses this request never connects to, judged on the address libcurl is about to connect to: after
    /// DNS, connect-to rules and happy eyeballs, in whatever notation the URL used, and again on a reused
    /// connection before the request is sent. A refused address fails the request with `HTTPFailure.refused` set,
    /// and no packet is sent to it.
    ///
    /// For receivers named by configuration (webhooks): a host name that resolves to `169.254.169.254` reaches
    /// the cloud metadata service as surely as the literal address would (issue 26 §4). Empty by default: a probe
    /// must reach whatever address an origin has, and reports a private one as a finding.
    public var refusedAddresses: [AddressBlock] = []

    /// Creates a GET request with the careful defaults.
    public init(
        url: String,
        method: String = "GET",
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        userAgent: String? = nil,
        timeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        maxBodyBytes: Int? = HTTPRequest.defaultMaxBodyBytes,
        httpsOnly: Bool = true,
        connectTo: [ConnectToRule] = [],
        trust: TrustConfiguration = .system,
        readsCertificate: Bool = false,
        describesRejectedCertificate: Bool = true,
        httpVersion: HTTPVersionPreference = .http2PreferredOverTLS,
        waitsForMultiplexing: Bool = false,
        proxy: String? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.userAgent = userAgent
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodyBytes = maxBodyBytes
        self.httpsOnly = httpsOnly
        self.connectTo = connectTo
        self.trust = trust
        self.readsCertificate = readsCertificate
        self.describesRejectedCertificate = describesRejectedCertificate
        self.httpVersion = httpVersion
        self.waitsForMultiplexing = waitsForMultiplexing
        self.proxy = proxy
    }
}

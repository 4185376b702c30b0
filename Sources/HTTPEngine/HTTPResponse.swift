/// What came back from a completed HTTP exchange, whatever its status code.
///
/// A 3xx is a response, not a failure: the engine never follows redirects, and reports where one points in
/// `redirectURL` so the caller can judge it.
public struct HTTPResponse: Sendable, Hashable {
    /// The URL that was requested.
    public var url: String
    /// The status code, for example 200 or 301.
    public var status: Int
    /// Every response header field, in arrival order.
    public var headers: HTTPHeaders
    /// The response body, at most `HTTPRequest.maxBodyBytes` long.
    public var body: [UInt8]
    /// For a 3xx with a `Location`, the absolute URL it points to, resolved by libcurl against the request URL.
    public var redirectURL: String?
    /// The HTTP version used.
    public var httpVersion: HTTPVersion
    /// The IP address actually connected to (`CURLINFO_PRIMARY_IP`), for private-address checks.
    public var primaryIP: String?
    /// The port actually connected to.
    public var primaryPort: Int?
    /// Phase timings.
    public var timings: HTTPTimings
    /// The server's own (leaf) certificate when `HTTPRequest.readsCertificate` was set; `nil` when not requested
    /// or not reported. Intermediates are not read: nothing a check reports depends on them.
    public var certificate: CertificateSummary?

    /// Creates a response; the engine fills every field.
    public init(
        url: String,
        status: Int,
        headers: HTTPHeaders,
        body: [UInt8],
        redirectURL: String?,
        httpVersion: HTTPVersion,
        primaryIP: String?,
        primaryPort: Int?,
        timings: HTTPTimings,
        certificate: CertificateSummary?
    ) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.redirectURL = redirectURL
        self.httpVersion = httpVersion
        self.primaryIP = primaryIP
        self.primaryPort = primaryPort
        self.timings = timings
        self.certificate = certificate
    }
}

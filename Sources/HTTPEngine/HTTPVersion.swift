/// The HTTP version a transfer used, as libcurl reports it (`CURLINFO_HTTP_VERSION`).
public enum HTTPVersion: String, Sendable, Hashable {
    case http1_0 = "1.0"
    case http1_1 = "1.1"
    case http2 = "2"
    case http3 = "3"
    /// libcurl reported no version, for example because no response arrived.
    case unknown
}

/// Which HTTP version a request should negotiate.
public enum HTTPVersionPreference: Sendable, Hashable {
    /// Offer h2 through ALPN and fall back to HTTP/1.1 (libcurl's default since 7.62). Lets many requests to one
    /// host share a single TLS connection.
    case http2PreferredOverTLS
    /// Speak HTTP/1.1 only; each concurrent request to a host then needs its own connection.
    case http1_1Only
}

/// Which certificate authorities a request trusts.
///
/// libcurl's `CURLOPT_CAINFO` takes exactly one file, so "the public roots plus our private CA" means a combined
/// bundle. The engine writes each combined bundle once, to a path of its own, and reuses it: libcurl caches the
/// parsed trust store per path (`CURLOPT_CA_CACHE_TIMEOUT`), which is what makes new connections cheap, and a
/// fresh path per bundle keeps that cache from serving stale trust.
public enum TrustConfiguration: Sendable, Hashable {
    /// The system bundle libcurl was built with (on Debian `/etc/ssl/certs/ca-certificates.crt`).
    case system
    /// The system bundle plus the PEM certificates in `extraCAFile`, for staging or private CAs.
    case systemAnd(extraCAFile: String)
    /// Only the PEM certificates in `caFile`; the system roots are not trusted.
    case only(caFile: String)
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The facts about one certificate in a server's chain that monitoring reports on.
///
/// Built from libcurl's `CURLINFO_CERTINFO`: the `Cert:` PEM is parsed with swift-certificates; when that fails,
/// the text fields OpenSSL printed are used instead (dates in UTC).
public struct CertificateSummary: Sendable, Hashable {
    /// The subject distinguished name, for example `CN=origin.test`.
    public var subject: String
    /// The issuer distinguished name.
    public var issuer: String
    /// DNS names and IP addresses from the Subject Alternative Name extension.
    public var subjectAlternativeNames: [String]
    /// Start of the validity period.
    public var notBefore: Date
    /// End of the validity period.
    public var notAfter: Date
    /// The serial number as hex, when known.
    public var serialNumber: String?
    /// The certificate as PEM, when libcurl supplied it.
    public var pem: String?

    /// Creates a summary.
    public init(
        subject: String,
        issuer: String,
        subjectAlternativeNames: [String],
        notBefore: Date,
        notAfter: Date,
        serialNumber: String? = nil,
        pem: String? = nil
    ) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAlternativeNames = subjectAlternativeNames
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.serialNumber = serialNumber
        self.pem = pem
    }

    /// Whether `date` lies outside the validity period.
    public func isExpired(at date: Date) -> Bool {
        date > notAfter
    }

    /// Whether `date` is before the validity period starts.
    public func isNotYetValid(at date: Date) -> Bool {
        date < notBefore
    }
}

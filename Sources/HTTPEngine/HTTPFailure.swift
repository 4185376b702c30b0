/// A request that reached the network and failed there: DNS, TCP, TLS, a timeout or an oversized body.
///
/// `kind` is the classification callers act on; `identifier` is its stable string (`"tls.expired"`) for finding
/// codes, metrics and JSON. `curlCode` and `curlMessage` keep libcurl's own account for logs.
public struct HTTPFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this was.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The host name did not resolve.
        case dns
        /// The TCP connection could not be made (refused, unreachable).
        case connect
        /// The connect or total timeout ran out.
        case timeout
        /// The certificate chain does not lead to a trusted root.
        case tlsUntrusted = "tls.untrusted"
        /// The certificate is expired or not yet valid; `HTTPFailure.validityProblem` says which.
        case tlsExpired = "tls.expired"
        /// The certificate is trusted but not issued for the requested host name.
        case tlsHostname = "tls.hostname"
        /// The TLS handshake failed for a reason other than the certificate (protocol version, cipher, alert).
        case tlsProtocol = "tls.protocol"
        /// The response body exceeded `HTTPRequest.maxBodyBytes`.
        case tooLarge = "too_large"
        /// Anything else: a connection dropped mid-response, a refused scheme, an HTTP/2 error.
        case other
    }

    /// For `tlsExpired`: whether the certificate's validity period has ended or not yet begun.
    public enum ValidityProblem: String, Sendable, Hashable {
        case expired
        case notYetValid = "not_yet_valid"
    }

    /// The classification.
    public var kind: Kind
    /// The requested URL.
    public var url: String
    /// libcurl's result code (`CURLcode`), for example 60 for a failed peer verification.
    public var curlCode: Int
    /// libcurl's error-buffer text, or its generic text for the code when the buffer was empty.
    public var curlMessage: String
    /// OpenSSL's verification result (`CURLINFO_SSL_VERIFYRESULT`; 10 = expired), 0 when not applicable.
    public var verifyResult: Int
    /// For `tlsExpired`, which way the validity period was missed.
    public var validityProblem: ValidityProblem?
    /// The rejected (leaf) certificate: for `tlsExpired`, `tlsUntrusted` and `tlsHostname`, from a second,
    /// non-verifying handshake (`HTTPRequest.describesRejectedCertificate`); for `tlsHostname` from the failing
    /// handshake itself when libcurl printed it (CERTINFO, with a TLS library other than OpenSSL). `nil` when it
    /// could not be read.
    public var certificate: CertificateSummary?
    /// The status code when a response had started before the failure (for example `tooLarge`), else `nil`.
    public var status: Int?
    /// The IP address connected to, when the connection got that far.
    public var primaryIP: String?
    /// Phase timings up to the failure.
    public var timings: HTTPTimings
    /// For a `connect` failure: the address the engine refused to connect to (`HTTPRequest.refusedAddresses`).
    public var refused: RefusedConnection?
    /// For a `connect` failure: the engine opened no socket because only this many file descriptors were free, no
    /// more than `CurlEngine.Configuration.descriptorReserve`. The process's trouble, not the server's.
    public var descriptorShortage: Int?

    /// The stable identifier of `kind`, for example `"tls.expired"`.
    public var identifier: String { kind.rawValue }

    /// Creates a failure; the engine fills every field.
    public init(
        kind: Kind,
        url: String,
        curlCode: Int,
        curlMessage: String,
        verifyResult: Int = 0,
        validityProblem: ValidityProblem? = nil,
        certificate: CertificateSummary? = nil,
        status: Int? = nil,
        primaryIP: String? = nil,
        timings: HTTPTimings = HTTPTimings()
    ) {
        self.kind = kind
        self.url = url
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.verifyResult = verifyResult
        self.validityProblem = validityProblem
        self.certificate = certificate
        self.status = status
        self.primaryIP = primaryIP
        self.timings = timings
    }

    public var description: String {
        var text = "\(identifier): \(url): \(curlMessage) (curl code \(curlCode)"
        if verifyResult != 0 { text += ", verify result \(verifyResult)" }
        text += ")"
        if let leaf = certificate {
            text += "; certificate \(leaf.subject), valid \(leaf.notBefore) to \(leaf.notAfter)"
        }
        return text
    }
}

import Foundation

/// The raw facts of one HTTP fetch, as the probe saw them: what evaluation turns into findings.
///
/// A value type without any libcurl type, so evaluation stays pure and tests can build observations by hand.
public struct FetchObservation: Sendable, Hashable, Codable {
    /// The URL asked for.
    public var url: String
    /// The user agent sent.
    public var userAgent: String
    public var outcome: Outcome
    /// The connected address (`93.184.215.14`), when a connection was made.
    public var primaryIP: String?
    /// True when a `connect-to` rule sent this request elsewhere: then a private address is expected, not a finding.
    public var viaConnectTo: Bool
    /// Seconds from start to the end of the transfer (or the failure).
    public var totalSeconds: Double
    /// The leaf certificate, when it was read (with verification on, or from the describing second handshake).
    public var certificate: CertificateFacts?

    public enum Outcome: Sendable, Hashable, Codable {
        case response(FetchResponse)
        case failure(FetchFailure)
    }

    public init(
        url: String,
        userAgent: String,
        outcome: Outcome,
        primaryIP: String? = nil,
        viaConnectTo: Bool = false,
        totalSeconds: Double = 0,
        certificate: CertificateFacts? = nil
    ) {
        self.url = url
        self.userAgent = userAgent
        self.outcome = outcome
        self.primaryIP = primaryIP
        self.viaConnectTo = viaConnectTo
        self.totalSeconds = totalSeconds
        self.certificate = certificate
    }

    /// The response, when the server answered.
    public var response: FetchResponse? {
        if case .response(let response) = outcome { return response }
        return nil
    }

    /// The failure, when the server did not answer completely.
    public var failure: FetchFailure? {
        if case .failure(let failure) = outcome { return failure }
        return nil
    }
}

/// A complete HTTP answer.
public struct FetchResponse: Sendable, Hashable, Codable {
    public var status: Int
    /// Header fields in arrival order; names as sent.
    public var headers: [HeaderField]
    public var body: [UInt8]
    /// The absolute target of a 3xx `Location`, resolved against the request URL.
    public var redirectLocation: String?
    /// `"1.1"`, `"2"`.
    public var httpVersion: String?

    public init(
        status: Int,
        headers: [HeaderField] = [],
        body: [UInt8] = [],
        redirectLocation: String? = nil,
        httpVersion: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.redirectLocation = redirectLocation
        self.httpVersion = httpVersion
    }

    /// The last value of a header, its name compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last(where: { $0.name.lowercased() == wanted })?.value
    }
}

/// One header line.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Why a fetch produced no complete answer.
public struct FetchFailure: Sendable, Hashable, Codable {
    /// The class of failure. The raw values are the HTTP engine's failure identifiers, stored in observations.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case dns
        case connect
        case timeout
        case tlsUntrusted = "tls.untrusted"
        case tlsExpired = "tls.expired"
        case tlsHostname = "tls.hostname"
        case tlsProtocol = "tls.protocol"
        case tooLarge = "too_large"
        /// Anything else: a connection dropped mid-response, an HTTP/2 error, a cancelled check.
        case other
    }

    public var kind: Kind
    /// What libcurl said, for a person (`SSL certificate problem: certificate has expired`).
    public var message: String
    /// For `dns`: `true` when the resolver answered that the name does not exist (NXDOMAIN), `nil` when it was not
    /// asked or could not answer. A name that does not exist is the domain's own problem, never evidence that this
    /// host's network is down.
    public var nameNotFound: Bool?

    public init(kind: Kind, message: String, nameNotFound: Bool? = nil) {
        self.kind = kind
        self.message = message
        self.nameNotFound = nameNotFound
    }
}

/// The facts of a leaf certificate that findings and `status` need.
public struct CertificateFacts: Sendable, Hashable, Codable {
    public var subject: String
    public var issuer: String
    public var subjectAlternativeNames: [String]
    public var notBefore: Date
    public var notAfter: Date

    public init(subject: String, issuer: String, subjectAlternativeNames: [String], notBefore: Date, notAfter: Date) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAlternativeNames = subjectAlternativeNames
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}

extension CertificateFacts {
    enum CodingKeys: String, CodingKey {
        case subject, issuer
        case subjectAlternativeNames = "subject_alternative_names"
        case notBefore = "not_before"
        case notAfter = "not_after"
    }
}

import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority minted at test time, so no checked-in certificate ever expires.
///
/// Shaped after grpc-swift-nio-transport's `CertificateChain`: a self-signed root can issue an intermediate, and
/// either can issue leaf certificates for any host names and validity window.
public struct TestCertificateAuthority: Sendable {
    /// The CA certificate.
    public let certificate: Certificate
    /// The CA's signing key.
    let key: Certificate.PrivateKey
    /// The chain above this CA, nearest first (empty for a root).
    let parents: [Certificate]

    /// Mints a new self-signed root CA valid for ten years around `now`.
    public init(commonName: String = "AASA Monitor Test Root CA", now: Date = Date()) throws {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let name = try DistinguishedName { CommonName(commonName) }
        self.certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: Self.wholeSeconds(now.addingTimeInterval(-86_400)),
            notValidAfter: Self.wholeSeconds(now.addingTimeInterval(86_400 * 3_650)),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
            },
            issuerPrivateKey: key
        )
        self.key = key
        self.parents = []
    }

    private init(certificate: Certificate, key: Certificate.PrivateKey, parents: [Certificate]) {
        self.certificate = certificate
        self.key = key
        self.parents = parents
    }

    /// The CA certificate as PEM, for a client's trust file.
    public var pem: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// Issues an intermediate CA signed by this one.
    public func intermediate(
        commonName: String = "AASA Monitor Test Intermediate CA", now: Date = Date()
    ) throws
        -> TestCertificateAuthority
    {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: Self.wholeSeconds(now.addingTimeInterval(-86_400)),
            notValidAfter: Self.wholeSeconds(now.addingTimeInterval(86_400 * 1_000)),
            issuer: self.certificate.subject,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: key.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: try self.keyIdentifier)
            },
            issuerPrivateKey: self.key
        )
        return TestCertificateAuthority(certificate: certificate, key: key, parents: [self.certificate] + parents)
    }

    /// Issues a server certificate for `dnsNames`, valid from `notBefore` to `notAfter`.
    public func issueLeaf(dnsNames: [String], notBefore: Date, notAfter: Date) throws -> TestLeafCertificate {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: Self.wholeSeconds(notBefore),
            notValidAfter: Self.wholeSeconds(notAfter),
            issuer: self.certificate.subject,
            subject: try DistinguishedName { CommonName(dnsNames.first ?? "leaf") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(dnsNames.map { GeneralName.dnsName($0) })
                AuthorityKeyIdentifier(keyIdentifier: try self.keyIdentifier)
            },
            issuerPrivateKey: self.key
        )
        // A server sends its leaf and the intermediates, never the root.
        let intermediates = parents.isEmpty ? [] : [self.certificate] + parents.dropLast()
        return TestLeafCertificate(certificate: certificate, key: key, intermediates: intermediates)
    }

    private var keyIdentifier: ArraySlice<UInt8> {
        get throws {
            guard let identifier = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier else {
                throw TestPKIError(message: "CA certificate has no subject key identifier")
            }
            return identifier
        }
    }

    /// Certificates carry whole seconds; rounding here lets tests compare dates exactly.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

/// A leaf certificate, its key and the intermediates a server sends with it.
public struct TestLeafCertificate: Sendable {
    /// The leaf certificate.
    public let certificate: Certificate
    /// Its private key.
    public let key: Certificate.PrivateKey
    /// Intermediate CA certificates, nearest first.
    public let intermediates: [Certificate]

    /// The leaf's facts as plain values, for comparing with what a client reports.
    public var summary: MintedCertificate {
        MintedCertificate(certificate: certificate)
    }
}

/// What was minted, as plain values (tests need not import X509).
public struct MintedCertificate: Sendable, Hashable {
    /// The subject as swift-certificates prints it, for example `CN=origin.test`.
    public let subject: String
    /// The issuer as swift-certificates prints it.
    public let issuer: String
    /// The DNS names in the SAN extension.
    public let dnsNames: [String]
    /// Start of validity.
    public let notBefore: Date
    /// End of validity.
    public let notAfter: Date

    init(certificate: Certificate) {
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        var names: [String] = []
        for name in (try? certificate.extensions.subjectAlternativeNames) ?? SubjectAlternativeNames() {
            if case .dnsName(let dnsName) = name { names.append(dnsName) }
        }
        dnsNames = names
        notBefore = certificate.notValidBefore
        notAfter = certificate.notValidAfter
    }
}

/// A failure while minting test certificates.
public struct TestPKIError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    public var description: String { message }
}

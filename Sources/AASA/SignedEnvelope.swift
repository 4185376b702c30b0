import SwiftASN1

/// Unwraps a legacy PKCS#7 / CMS `SignedData` AASA file (iOS 8) and returns the JSON it carries.
///
/// Apple's fetcher still accepts these files and reads the encapsulated content without caring who signed it,
/// so the signature is deliberately not verified (like `openssl cms -verify -noverify`). Parsing uses BER rules,
/// because signing tools emit indefinite lengths and constructed OCTET STRINGs, which DER forbids.
///
/// The path walked (RFC 5652):
/// `ContentInfo { contentType signedData, [0] EXPLICIT SignedData { version, digestAlgorithms,
/// encapContentInfo { eContentType, [0] EXPLICIT eContent OCTET STRING }, … } }`.
public enum SignedEnvelope {
    /// `1.2.840.113549.1.7.2`, id-signedData.
    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]

    /// Whether `bytes` start like a BER SEQUENCE with a long-form or indefinite length (any real envelope is
    /// longer than 127 bytes), so a signed file is told from JSON without trying both parsers on everything.
    /// `0x30` alone is also the JSON text `0`, hence the check of the length byte, which JSON cannot produce there.
    public static func looksSigned(_ bytes: [UInt8]) -> Bool {
        bytes.count > 2 && bytes[0] == 0x30 && bytes[1] >= 0x80
    }

    /// Why an envelope could not be opened.
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
    }

    /// The encapsulated content (the JSON bytes) of a `SignedData` ContentInfo.
    public static func content(of bytes: [UInt8]) throws(Failure) -> [UInt8] {
        do {
            let root = try BER.parse(bytes)
            return try BER.sequence(root, identifier: .sequence) { nodes in
                let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
                guard contentType == signedDataOID else {
                    throw ASN1Error.invalidASN1Object(reason: "content type \(contentType) is not signedData")
                }
                return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { signedData in
                    try encapsulatedContent(ofSignedData: signedData)
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "not a readable PKCS7 SignedData envelope (\(error))")
        }
    }

    /// `SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo, … }`: only the third field
    /// matters here; certificates, CRLs and signer infos that follow are skipped unread.
    private static func encapsulatedContent(ofSignedData node: ASN1Node) throws -> [UInt8] {
        try BER.sequence(node, identifier: .sequence) { nodes in
            _ = try Int(berEncoded: &nodes)  // version
            guard let digestAlgorithms = nodes.next(), digestAlgorithms.identifier == .set else {
                throw ASN1Error.invalidASN1Object(reason: "SignedData has no digestAlgorithms SET")
            }
            guard let encapContentInfo = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "SignedData has no encapContentInfo")
            }
            let content = try BER.sequence(encapContentInfo, identifier: .sequence) { inner in
                _ = try ASN1ObjectIdentifier(berEncoded: &inner)  // eContentType, usually id-data
                return try BER.optionalExplicitlyTagged(&inner, tagNumber: 0, tagClass: .contextSpecific) { node in
                    try ASN1OctetString(berEncoded: node)
                }
            }
            // Skip certificates, crls and signerInfos so the sequence helper sees every node consumed.
            while nodes.next() != nil {}
            guard let content else {
                throw Failure(message: "the PKCS7 envelope is detached: it carries no content")
            }
            return Array(content.bytes)
        }
    }
}

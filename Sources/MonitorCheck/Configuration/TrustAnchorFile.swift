import SwiftASN1
import X509

/// Checks a CA file (`http.ca_file`, `webhooks[].ca_file`, `check --ca-file`) before anything relies on it: a
/// missing or non-PEM file would otherwise surface only later, as every origin `tls.untrusted` or a receiver that
/// can never be reached.
package enum TrustAnchorFile {
    /// Why `path` cannot serve as extra trust anchors, or `nil` when it holds at least one PEM certificate that
    /// parses.
    package static func problem(at path: String) -> String? {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try ConfigurationFile.read(path, limit: ConfigurationFile.maximumCAFileSize)
        } catch {
            return "cannot read the CA file \(path): \(error.reason)"
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return "the CA file \(path) is not PEM text (binary DER? convert it with `openssl x509 -inform der`)"
        }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            return "the CA file \(path) is not PEM: expected -----BEGIN CERTIFICATE----- blocks"
        }
        let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }
        guard !certificates.isEmpty else {
            return "the CA file \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        }
        for (index, document) in certificates.enumerated() {
            do {
                _ = try Certificate(derEncoded: document.derBytes)
            } catch {
                return "certificate \(index + 1) in the CA file \(path) does not parse: \(error)"
            }
        }
        return nil
    }
}

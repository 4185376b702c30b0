import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CertificateSummary {
    /// Builds a summary from one certificate's `Name:value` lines in `CURLINFO_CERTINFO`.
    ///
    /// Returns `nil` when neither the PEM nor the printed dates can be read.
    init?(certInfoFields fields: [(name: String, value: String)]) {
        func field(_ name: String) -> String? {
            fields.first { HTTPHeaders.namesMatch($0.name, name) }?.value
        }
        let pem = field("Cert")
        if let pem, let certificate = try? Certificate(pemEncoded: pem) {
            self.init(certificate: certificate, pem: pem)
            return
        }
        guard let notBefore = field("Start date").flatMap(Self.parseOpenSSLDate),
            let notAfter = field("Expire date").flatMap(Self.parseOpenSSLDate)
        else { return nil }
        let sanText = field("X509v3 Subject Alternative Name") ?? ""
        self.init(
            subject: field("Subject") ?? "",
            issuer: field("Issuer") ?? "",
            subjectAlternativeNames: Self.parseOpenSSLAlternativeNames(sanText),
            notBefore: notBefore,
            notAfter: notAfter,
            serialNumber: field("Serial Number"),
            pem: pem
        )
    }

    /// Builds a summary from a certificate's DER bytes; `nil` when they do not parse.
    init?(derEncoded bytes: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: bytes) else { return nil }
        self.init(certificate: certificate, pem: nil)
    }

    /// Builds a summary from a parsed certificate.
    init(certificate: Certificate, pem: String?) {
        var names: [String] = []
        if let alternativeNames = try? certificate.extensions.subjectAlternativeNames {
            for name in alternativeNames {
                switch name {
                case .dnsName(let dnsName): names.append(dnsName)
                case .ipAddress(let octets): names.append(Self.formatIPAddress(Array(octets.bytes)))
                default: continue
                }
            }
        }
        self.init(
            subject: certificate.subject.description,
            issuer: certificate.issuer.description,
            subjectAlternativeNames: names,
            notBefore: certificate.notValidBefore,
            notAfter: certificate.notValidAfter,
            serialNumber: certificate.serialNumber.description,
            pem: pem
        )
    }

    /// Parses OpenSSL's `ASN1_TIME_print` form, `Nov  2 19:19:56 2026 GMT`, as UTC.
    static func parseOpenSSLDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count >= 4, let monthIndex = months.firstIndex(of: String(parts[0])),
            let day = Int(parts[1]), let year = Int(parts[3])
        else { return nil }
        let clock = parts[2].split(separator: ":").compactMap { Int($0.prefix(2)) }
        guard clock.count == 3 else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        let seconds = days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's `days_from_civil`), so no calendar
    /// or time-zone database is involved.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses OpenSSL's printed SAN list, `DNS:a.example, DNS:b.example, IP Address:127.0.0.1`.
    private static func parseOpenSSLAlternativeNames(_ text: String) -> [String] {
        text.split(separator: ",").compactMap { entry in
            let trimmed = entry.drop { $0 == " " }
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            return String(trimmed[trimmed.index(after: colon)...])
        }
    }

    private static func formatIPAddress(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 {
            return bytes.map(String.init).joined(separator: ".")
        }
        var groups: [String] = []
        var index = 0
        while index + 1 < bytes.count {
            groups.append(String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16))
            index += 2
        }
        return groups.joined(separator: ":")
    }
}

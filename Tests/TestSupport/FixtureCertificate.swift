import Foundation

/// Which certificate a fixture server presents, relative to the CA its clients are told to trust.
public enum FixtureCertificate: Sendable {
    /// Valid for `host` (which may be a wildcard like `*.bench.test`), issued by the trusted root.
    case valid(for: String)
    /// Valid for `host`, issued by an intermediate that the server sends along.
    case validViaIntermediate(for: String)
    /// Valid for `host` but expiring `days` from now.
    case expiringSoon(for: String, days: Int)
    /// For `host`, but its validity ended yesterday.
    case expired(for: String)
    /// For `host`, but its validity starts in ten days.
    case notYetValid(for: String)
    /// Trusted and current, but issued for `wrong-host.test` instead of `host`.
    case wrongHost(for: String)
    /// For `host`, current, but issued by a CA the client does not trust.
    case untrusted(for: String)

    /// Mints a fresh CA (the one clients trust) and the leaf this case describes.
    func mint(now: Date = Date()) throws -> (trusted: TestCertificateAuthority, leaf: TestLeafCertificate) {
        let root = try TestCertificateAuthority(now: now)
        let day: TimeInterval = 86_400
        switch self {
        case .valid(let host):
            return (root, try root.issueLeaf(dnsNames: [host], notBefore: now - day, notAfter: now + 90 * day))
        case .validViaIntermediate(let host):
            let intermediate = try root.intermediate(now: now)
            let leaf = try intermediate.issueLeaf(dnsNames: [host], notBefore: now - day, notAfter: now + 90 * day)
            return (root, leaf)
        case .expiringSoon(let host, let days):
            let notAfter = now + Double(days) * day
            return (root, try root.issueLeaf(dnsNames: [host], notBefore: now - 80 * day, notAfter: notAfter))
        case .expired(let host):
            return (root, try root.issueLeaf(dnsNames: [host], notBefore: now - 30 * day, notAfter: now - day))
        case .notYetValid(let host):
            return (root, try root.issueLeaf(dnsNames: [host], notBefore: now + 10 * day, notAfter: now + 100 * day))
        case .wrongHost:
            let leaf = try root.issueLeaf(
                dnsNames: ["wrong-host.test"], notBefore: now - day, notAfter: now + 90 * day)
            return (root, leaf)
        case .untrusted(let host):
            let stranger = try TestCertificateAuthority(commonName: "Untrusted Stranger CA", now: now)
            return (root, try stranger.issueLeaf(dnsNames: [host], notBefore: now - day, notAfter: now + 90 * day))
        }
    }
}

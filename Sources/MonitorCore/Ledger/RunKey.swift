import AASA
import Crypto
import Foundation
import MonitorEvaluation

/// The outcome of a check, reduced to what makes two checks "the same" for history.
///
/// Two checks with equal keys extend one run. The key covers the verdict, every finding's identity and severity,
/// the meanings seen (hashes), what each location and the CDN answered (status, failure class, Apple's reason
/// code), the certificate's expiry and the app claims checked. It leaves out what changes on every check without changing the story:
/// times, durations, `Age`, the expected refresh and message wording. Timing samples go to metrics instead.
public enum RunKey {
    public static func of(_ report: DomainReport) -> String {
        var parts: [String] = [report.verdict.rawValue]
        let origin = report.origin
        parts.append(location(origin.wellKnown))
        parts.append("plain=\(origin.plainStatus.map(String.init) ?? "-")")
        parts.append(origin.root.map(location) ?? "root=-")
        if let cdn = report.cdn {
            parts.append(
                "cdn=\(cdn.status.map(String.init) ?? "-")/\(cdn.error ?? "")/\(cdn.canonicalHash ?? "")"
                    + "/\(cdn.appleFailureReason?.code ?? "")")
        } else {
            parts.append("cdn=not-asked")
        }
        for finding in report.findings {
            parts.append("\(finding.code)|\(finding.source.rawValue)|\(finding.subject)|\(finding.severity.rawValue)")
        }
        // The claims checked (`apps:`): a new build claiming the domain starts a run, whose report `status` reads.
        for claim in report.claims ?? [] {
            parts.append("claim|\(claim.service)|\(claim.appID)|\(claim.claimedBy)|\(claim.held)")
        }
        let digest = SHA256.hash(data: Array(parts.joined(separator: "\n").utf8))
        return digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static func location(_ facts: LocationFacts) -> String {
        let expiry = facts.certificate.map { String(Int($0.notAfter.timeIntervalSince1970)) } ?? ""
        return "\(facts.status.map(String.init) ?? "-")/\(facts.error ?? "")/\(facts.canonicalHash ?? "")/\(expiry)"
    }
}

import Foundation
import MonitorEvaluation

/// Hand-built reports for store tests (SQLite's and PostgreSQL's).
public enum StoreReports {
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)

    public static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// A JSON column as every version before compression wrote it: `StoreCoding`'s encoder settings, plain.
    public static func plainJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    public static func report(
        domain: String = "example.com",
        at minutes: Double,
        origin: String?,
        cdn: String?,
        verdict: Verdict = .ready,
        findings: [ReportFinding] = []
    ) -> DomainReport {
        var documents: [String: String] = [:]
        for hash in [origin, cdn].compactMap(\.self) {
            documents[hash] = "{\"applinks\":{\"details\":[],\"v\":\"\(hash)\"}}"
        }
        return DomainReport(
            domain: domain,
            checkedAt: at(minutes),
            durationSeconds: 0.25,
            verdict: verdict,
            findings: findings,
            origin: OriginFacts(
                wellKnown: LocationFacts(
                    url: "https://\(domain)/.well-known/apple-app-site-association", status: origin == nil ? 404 : 200,
                    canonicalHash: origin),
                plainStatus: 200, root: nil),
            cdn: CDNFacts(
                url: "https://app-site-association.cdn-apple.com/a/v1/\(domain)", status: cdn == nil ? 404 : 200,
                canonicalHash: cdn),
            diff: nil,
            documents: documents)
    }
}

import AASA
import Foundation

/// The human form of `check`: per domain the verdict first, then findings grouped by source, each with its code and
/// the fix in plain words, then the origin-vs-CDN diff if any.
public enum ReportText {
    /// The report of every domain, separated by blank lines.
    public static func render(_ reports: [DomainReport]) -> String {
        reports.map(render).joined(separator: "\n")
    }

    /// One domain's report.
    public static func render(_ report: DomainReport) -> String {
        let explanation =
            report.verdict == .ready && report.originOnly == true
            ? "the origin is valid; every claim of this domain reads it there directly, not through Apple's CDN"
            : report.verdict.explanation
        var lines = ["\(report.domain): \(report.verdict.rawValue) — \(explanation)"]
        var facts: [String] = []
        let wellKnown = report.origin.wellKnown
        facts.append("origin \(wellKnown.status.map(String.init) ?? wellKnown.error ?? "no answer")")
        if let cdn = report.cdn {
            facts.append("CDN \(cdn.status.map(String.init) ?? cdn.error ?? "no answer")")
            if let expiry = CDNExpiry.summary(cdn, now: report.checkedAt) { facts.append(expiry) }
        }
        if let notAfter = wellKnown.certificate?.notAfter {
            facts.append("certificate until \(notAfter.shownTime)")
        }
        facts.append(String(format: "%.2f s", report.durationSeconds))
        lines.append("  " + facts.joined(separator: " · "))
        for note in report.cdn?.notes ?? [] { lines.append("  note: \(note)") }
        for source in FindingSource.allCases {
            let findings = report.findings.filter { $0.source == source }
            guard !findings.isEmpty else { continue }
            lines.append("  \(source.rawValue)")
            for finding in findings {
                lines.append(
                    "    \(finding.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) "
                        + "\(finding.code): \(finding.message)")
                if let paths = finding.detail["paths"]?.arrayValue?.compactMap(\.stringValue), !paths.isEmpty {
                    lines.append(
                        "            at " + paths.prefix(5).joined(separator: ", ")
                            + (paths.count > 5 ? " … and \(paths.count - 5) more" : ""))
                }
                if let cause = finding.causedBy { lines.append("            " + cause.text) }
            }
        }
        lines += claimLines(report.claims ?? [])
        if let diff = report.diff, !diff.changes.isEmpty {
            lines.append("  Apple's copy → origin (\(diff.hashA) → \(diff.hashB)):")
            for change in diff.changes.prefix(30) { lines.append("    \(change.summary)") }
            if diff.changes.count > 30 { lines.append("    … and \(diff.changes.count - 30) more") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Verdict {
    /// One sentence saying what the verdict means for the release.
    public var explanation: String {
        switch self {
        case .ready: "the origin is valid and Apple serves the same meaning"
        case .originBroken: "the origin is broken: Apple refuses or will refuse this file"
        case .expectationFailed: "an expected app or URL does not hold"
        case .cdnMissing: "Apple's CDN does not serve a usable copy"
        case .cdnStale: "Apple's CDN still serves an older meaning"
        case .unknown: "Apple's CDN could not be asked: nothing to compare"
        }
    }
}

/// The JSON document of `check --json`: `{"domains": [...], "summary": {...}}`.
public struct CheckOutput: Sendable, Encodable {
    public var domains: [DomainReport]
    public var summary: CheckSummary?

    public init(domains: [DomainReport], summary: CheckSummary? = nil) {
        self.domains = domains
        self.summary = summary
    }
}

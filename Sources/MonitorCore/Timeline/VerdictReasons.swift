import AASA
import MonitorEvaluation

/// The finding codes a verdict rests on, so `history` can say why a verdict changed.
///
/// A verdict is the first rule of `DomainEvaluator.verdict(for:cdnAsked:)` that applies; the reasons are the
/// findings that rule looked at, root causes only when there are any (a root-path 404 caused by a `.well-known`
/// timeout is not a reason of its own). Codes are listed once, in the report's order.
public enum VerdictReasons {
    /// The codes that make `verdict` what it is for these findings; empty for `ready`, and for `unknown` when
    /// the CDN was simply not asked.
    public static func codes(for verdict: Verdict, findings: [ReportFinding]) -> [FindingCode] {
        let matching: [ReportFinding]
        switch verdict {
        case .originBroken:
            matching = findings.filter(DomainEvaluator.isOriginBreaking)
        case .expectationFailed:
            matching = findings.filter { $0.code.family == .expectation && $0.severity == .error }
        case .cdnMissing:
            matching = findings.filter(DomainEvaluator.isCDNMissing)
        case .cdnStale:
            matching = findings.filter { $0.has(.cdnStale) && $0.severity != .info }
        case .unknown:
            matching = findings.filter(DomainEvaluator.isCDNUnreachable)
        case .ready:
            matching = []
        }
        let roots = matching.filter { $0.causedBy == nil }
        return unique((roots.isEmpty ? matching : roots).map(\.code))
    }

    /// The codes of the problems (warnings and errors of their own) open before a check and gone after it: what
    /// was fixed when a verdict got better.
    public static func cleared(before: [OpenFinding], after: [ReportFinding]) -> [FindingCode] {
        let now = Set(after.map(\.code))
        return unique(
            before.filter { $0.severity > .info && $0.causedBy == nil && !now.contains($0.key.code) }.map(\.key.code))
    }

    private static func unique(_ codes: [FindingCode]) -> [FindingCode] {
        var seen: Set<FindingCode> = []
        return codes.filter { seen.insert($0).inserted }
    }
}

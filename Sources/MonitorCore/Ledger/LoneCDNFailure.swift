import AASA
import Foundation
import MonitorEvaluation

/// Apple's CDN failing for one domain while it answers for the others: the domain's own problem, after a while.
///
/// `cdn.unreachable` (a 5xx, a reset, a timeout from Apple's CDN) says nothing about the domain and is reported
/// once as the monitor's `monitor.cdn_unreachable`. But that condition fires only when the CDN fails check after
/// check across domains: a CDN that answers 503 for this domain alone would leave it `unknown` forever, with an
/// alert promised and never sent. So once this domain's CDN answer has failed for `cdn.lone_failure_after` while
/// the monitor's own condition is not active, the finding becomes an error of the domain's own and alerts like any
/// other.
public enum LoneCDNFailure {
    /// How long one domain's CDN answer fails, the others' not, before it alerts as the domain's problem, by default.
    public static let alertsAfter: TimeInterval = CDNSettings.loneFailureAfterDefault

    /// `report` with its `cdn.unreachable` made the domain's own error when it has lasted `after` (its first sight
    /// is in `previous`, the domain's open findings before this check) and `cdnHeld` is false (the monitor's
    /// `monitor.cdn_unreachable` is not active).
    public static func promote(
        _ report: DomainReport, previous: [OpenFinding]?, cdnHeld: Bool, after: TimeInterval = alertsAfter,
        now: Date
    ) -> DomainReport {
        // Only Apple's own answer (a 5xx) about a copy devices read: a failure to reach the CDN at all is this
        // host's side, and an origin-only domain's CDN copy is information.
        guard !cdnHeld, report.originOnly != true,
            let index = report.findings.firstIndex(where: {
                $0.has(.cdnUnreachable) && $0.severity > .info && $0.detail["status"] != nil
            })
        else { return report }
        let finding = report.findings[index]
        guard let since = previous?.first(where: { $0.key == finding.openKey })?.since,
            now.timeIntervalSince(since) >= after
        else { return report }
        var report = report
        var promoted = finding
        promoted.severity = .error
        promoted.causedBy = nil
        let status = finding.detail["status"]?.logText ?? "an error"
        promoted.message =
            "Apple's CDN has answered \(status) for this domain since \(RFC3339.string(since)), while it answers for the "
            + "others: devices that need a fresh copy of this domain's file get none. The origin is not to blame; "
            + "if it lasts, ask Apple (Feedback Assistant) with the domain and the time"
        promoted.detail["since"] = .string(RFC3339.string(since))
        report.findings[index] = promoted
        return report
    }
}

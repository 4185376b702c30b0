import Foundation
import MonitorEvaluation

/// `check --wait`: whether to check again and when, pure (reports and times in, a decision out).
///
/// Waiting helps only a domain whose exit code is 3 (Apple's copy stale, missing or not askable): a broken origin
/// (1) or a failed expectation (4) needs a person, and every domain `ready` (0) is done. A waiting domain is checked
/// again when Apple's cached copy may change (its expiry from `max-age` − `Age`), never sooner than `step` after
/// the last check (a minute: Apple's CDN is not asked in a loop) and never after the deadline.
public enum ReleaseWait {
    public enum Decision: Sendable, Hashable {
        /// Print the reports and exit with their code.
        case stop
        /// Check the `waiting` domains again at `at`.
        case recheck(at: Date)
    }

    /// The reports whose domain waiting may fix (exit code 3).
    public static func waiting(_ reports: [DomainReport]) -> [DomainReport] {
        reports.filter { $0.verdict.exitCode == 3 }
    }

    public static func decide(_ reports: [DomainReport], now: Date, deadline: Date, step: TimeInterval) -> Decision {
        let code = Verdict.exitCode(for: reports.map(\.verdict))
        guard code == 3 else { return .stop }
        let earliest = now.addingTimeInterval(step)
        guard earliest <= deadline else { return .stop }
        // A copy that does not say when it expires may change any time: it is looked at after one step.
        let expiries = waiting(reports).map { $0.cdn?.expiresAt ?? $0.cdn?.expectedRefresh ?? earliest }
        let next = max(earliest, expiries.min() ?? earliest)
        // No waiting copy can change before the deadline: waiting would end in the same exit 3.
        guard next <= deadline else { return .stop }
        return .recheck(at: next)
    }

    /// One line for a person: which domains wait, for what (Apple's CDN, or this host's network when neither the
    /// origin nor Apple's CDN answered from here), when Apple's copy may change, how long is left.
    public static func progress(_ reports: [DomainReport], now: Date, deadline: Date, next: Date) -> String {
        let domains = waiting(reports).map { report in
            let expiry = report.cdn.flatMap { CDNExpiry.phrase($0.expiresAt ?? $0.expectedRefresh, now: now) }
            return "\(report.domain) (\(report.verdict.rawValue)\(expiry.map { ", Apple's copy \($0)" } ?? ""))"
        }
        return "waiting for \(waitedFor(waiting(reports))): " + domains.joined(separator: "; ") + " — next check in "
            + DurationText.describe(next.timeIntervalSince(now)) + ", "
            + DurationText.describe(deadline.timeIntervalSince(now)) + " left"
    }
}

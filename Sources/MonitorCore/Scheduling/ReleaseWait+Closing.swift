import AASA
import Foundation
import MonitorEvaluation

/// What `check --wait` tells a person besides its progress: what a domain waits for, and why waiting ended while a
/// domain still waits. Pure, as `decide` is: the same reports and times give the same line.
extension ReleaseWait {
    /// Whether `report` waits for this host's network rather than for Apple: its origin and Apple's CDN host both
    /// failed DNS or connect from here (the evaluator blamed `monitor.network`), so Apple's copy was never seen.
    public static func waitsForHostNetwork(_ report: DomainReport) -> Bool {
        report.findings.contains { $0.causedBy?.code == FindingCode.monitorNetwork }
    }

    /// The progress line's subject: what the waiting domains wait for.
    static func waitedFor(_ waiting: [DomainReport]) -> String {
        switch (waiting.contains(where: waitsForHostNetwork), waiting.contains { !waitsForHostNetwork($0) }) {
        case (true, false): "this host's network (its DNS resolver, routes or firewall)"
        case (true, true): "Apple's CDN and this host's network"
        default: "Apple's CDN"
        }
    }

    /// Why waiting ended while a domain still waits (exit 3), one line for standard error; `nil` for any other
    /// exit code, which the report explains. `rechecks` counts the checks after the first: none means `--wait`
    /// did not wait at all, and the line says what would have let it. `now`, `deadline` and `step` are `decide`'s.
    public static func closing(
        _ reports: [DomainReport], now: Date, deadline: Date, step: TimeInterval, rechecks: Int
    ) -> String? {
        let lagging = waiting(reports)
        guard Verdict.exitCode(for: reports.map(\.verdict)) == 3, !lagging.isEmpty else { return nil }
        let states = lagging.map { report in
            "\(report.domain) \(rechecks == 0 ? "is" : "still") \(report.verdict.rawValue)"
                + (waitsForHostNetwork(report) ? " (this host reaches neither it nor Apple's CDN)" : "")
        }.joined(separator: ", ")
        let left = DurationText.describe(deadline.timeIntervalSince(now))
        let expiries = lagging.compactMap { $0.cdn?.expiresAt ?? $0.cdn?.expectedRefresh }.filter { $0 > now }
        let change = expiries.min().map {
            "Apple's copy may change in \(DurationText.describe($0.timeIntervalSince(now)))"
        }
        if now.addingTimeInterval(step) > deadline {
            guard rechecks == 0 else { return "time is up: " + states }
            let apart = DurationText.describe(step)
            return "did not wait: \(states); checks are at least \(apart) apart and --wait ends in \(left): give a "
                + "--wait longer than \(apart)" + (change.map { " (\($0))" } ?? "")
        }
        // `decide` stopped before the deadline: no waiting copy can change before it.
        return (rechecks == 0 ? "did not wait: " : "stopped waiting with \(left) left: ") + states + "; "
            + (change ?? "Apple's copy may not change") + ", after --wait ends: give a longer --wait or check again "
            + "then"
    }
}

import AASA
import Foundation
import MonitorCore

/// The human `status`: the daemon first, then per domain its verdict first, then what explains it.
public enum StatusText {
    public static func render(_ snapshot: StatusSnapshot) -> String {
        var lines = [daemonLine(snapshot.daemon)]
        for condition in snapshot.monitor {
            lines.append(
                "monitor: \(condition.code) \(condition.state ?? "open") since \(condition.since?.rfc3339 ?? "-")"
                    + " — the monitor's own trouble, not the domains'; their affected alerts are held")
        }
        if snapshot.domains.isEmpty { lines.append("no domains checked yet") }
        for domain in snapshot.domains {
            lines.append(contentsOf: domainLines(domain))
        }
        let outbox = snapshot.outbox
        var line = "outbox: \(outbox.pending) pending, \(outbox.retrying) retrying, \(outbox.dead) dead"
        if let next = outbox.nextAttempt { line += ", next attempt \(next.rfc3339)" }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static func daemonLine(_ daemon: DaemonStatus) -> String {
        guard let beat = daemon.heartbeat, let age = daemon.heartbeatAge else { return "daemon: never ran" }
        let pid = daemon.pid.map { "pid \($0), " } ?? ""
        let state = daemon.running ? "running" : "not running"
        return "daemon: \(state) (\(pid)last heartbeat \(DurationText.compact(max(age, 0))) ago, \(beat.rfc3339))"
    }

    static func domainLines(_ domain: DomainStatus) -> [String] {
        var lines = [
            "\(domain.verdict.rawValue)  \(domain.domain)  since \(time(domain.since))"
                + "  (last check \(time(domain.lastCheck)))"
        ]
        lines.append("  cdn: " + cdnText(domain.cdn))
        if let notAfter = domain.certificate.notAfter {
            lines.append("  certificate expires \(notAfter.rfc3339)")
        }
        for finding in domain.findings {
            let subject = finding.subject.isEmpty ? "" : " \(finding.subject)"
            lines.append(
                "  \(finding.severity.rawValue) \(finding.code) [\(finding.source.rawValue)]\(subject)"
                    + " since \(time(finding.since)): \(finding.message)")
        }
        for alert in domain.alerts {
            let subject = alert.subject.isEmpty ? "" : " \(alert.subject)"
            lines.append(
                "  alert \(alert.code) [\(alert.source.rawValue)]\(subject): \(alert.state ?? "unknown")"
                    + (alert.since.map { " since \($0.rfc3339)" } ?? ""))
        }
        return lines
    }

    static func cdnText(_ cdn: CDNStatus) -> String {
        var parts: [String]
        switch cdn.inSync {
        case true?: parts = ["in sync"]
        case false?:
            parts = ["stale since \(time(cdn.staleSince))"]
            if let refresh = cdn.expectedRefresh { parts.append("expected refresh \(refresh.rfc3339)") }
        case nil: parts = ["unknown"]
        }
        if let pending = cdn.propagationPendingSince { parts.append("change pending since \(pending.rfc3339)") }
        if let delay = cdn.lastPropagationDelay { parts.append("last propagation took \(DurationText.compact(delay))") }
        return parts.joined(separator: ", ")
    }

    static func time(_ date: Date?) -> String { date?.rfc3339 ?? "-" }
}

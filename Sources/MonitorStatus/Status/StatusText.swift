import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// The human `status`: the daemon first, then per domain its verdict first, then what explains it.
package enum StatusText {
    package static func render(_ snapshot: StatusSnapshot) -> String {
        var lines = [daemonLine(snapshot.daemon)]
        lines += monitorLines(snapshot.monitor)
        if snapshot.domains.isEmpty { lines.append("no domains checked yet") }
        for domain in snapshot.domains {
            lines.append(contentsOf: domainLines(domain))
        }
        lines.append(outboxLine(snapshot.outbox))
        return lines.joined(separator: "\n")
    }

    static func monitorLines(_ conditions: [AlertStatus]) -> [String] {
        conditions.map { condition in
            "monitor: \(condition.code) \(condition.state ?? "open") since \(condition.since?.shownTime ?? "-")"
                + " — the monitor's own trouble, not the domains'; their affected alerts are held"
        }
    }

    static func outboxLine(_ outbox: OutboxStatus) -> String {
        var line = "outbox: \(outbox.pending) pending, \(outbox.retrying) retrying, \(outbox.dead) dead"
        if let next = outbox.nextAttempt { line += ", next attempt \(next.shownTime)" }
        if !outbox.failingWebhooks.isEmpty {
            line += "; failing: " + outbox.failingWebhooks.map(\.text).joined(separator: ", ")
        }
        return line
    }

    static func daemonLine(_ daemon: DaemonStatus) -> String {
        guard let beat = daemon.heartbeat, let age = daemon.heartbeatAge else { return "daemon: never ran" }
        let pid = daemon.pid.map { "pid \($0), " } ?? ""
        let state = daemon.running ? "running" : "not running"
        return "daemon: \(state) (\(pid)last heartbeat \(DurationText.compact(max(age, 0))) ago, \(beat.shownTime))"
    }

    static func domainLines(_ domain: DomainStatus) -> [String] {
        var lines = [
            "\(domain.verdict.rawValue)  \(domain.domain)  since \(time(domain.since))"
                + "  (last check \(time(domain.lastCheck)))"
        ]
        // Said first: whoever reads the alerts below must know nobody is told of them.
        if let silence = domain.silenced {
            lines.append("  nothing about it is sent: \(silence.shownText) (silence \(silence.id))")
        }
        lines.append("  cdn: " + cdnText(domain.cdn))
        if let notAfter = domain.certificate.notAfter {
            lines.append("  certificate expires \(notAfter.shownTime)")
        }
        if let apps = domain.apps, !apps.isEmpty {
            lines.append("  checked for the claims of " + apps.map(\.text).joined(separator: ", "))
        }
        // Causes first, each with its consequences indented under it and saying so, as `check` prints them.
        for (finding, depth) in FindingStatus.causeTree(domain.findings) {
            let indent = String(repeating: "  ", count: depth + 1)
            let subject = finding.subject.isEmpty ? "" : " \(finding.subject)"
            lines.append(
                "\(indent)\(finding.severity.rawValue) \(finding.code) [\(finding.source.rawValue)]\(subject)"
                    + " since \(time(finding.since)): \(finding.message)")
            if let cause = finding.causedBy { lines.append("\(indent)    \(cause.text)") }
        }
        for alert in domain.alerts {
            lines.append("  " + alertText(alert))
            // Under the alert it mutes, each silence: a silence of one code says nothing about the other alerts.
            for silence in alert.silencedBy {
                lines.append("    not sent: \(silence.shownText) (silence \(silence.id))")
            }
        }
        return lines
    }

    /// `alert cdn.stale [cdn]: firing since …`, and for an alert held open by flapping, until when and why:
    /// `alert origin.status [origin.well-known]: resolving since P (firing since F); flapping (fired 3 times within
    /// 1h): held open until H, unless it fails again`.
    static func alertText(_ alert: AlertStatus) -> String {
        let subject = alert.subject.isEmpty ? "" : " \(alert.subject)"
        var text = "alert \(alert.code) [\(alert.source.rawValue)]\(subject): \(alert.state ?? "unknown")"
        if let passing = alert.passingSince {
            text += " since \(passing.shownTime)" + (alert.since.map { " (firing since \($0.shownTime))" } ?? "")
        } else if let since = alert.since {
            text += " since \(since.shownTime)"
        }
        if let flapping = flappingText(alert) { text += "; " + flapping }
        return text
    }

    /// `flapping (fired 3 times within 1h): held open until …` in words, or `nil` for an alert that is not.
    package static func flappingText(_ alert: AlertStatus) -> String? {
        guard alert.flapping else { return nil }
        var text = "flapping"
        if let hold = alert.flapHold {
            text += " (fired \(hold.firings) times"
            text += hold.window.map { " within \(DurationText.compact($0)))" } ?? " recently)"
        }
        if let until = alert.heldUntil {
            text += ": held open until \(until.shownTime), unless it fails again before"
        } else if let hold = alert.flapHold?.hold {
            text += ": held open until it has passed for \(DurationText.compact(hold))"
        } else {
            text += ": held open until it has passed long enough"
        }
        return text
    }

    package static func cdnText(_ cdn: CDNStatus) -> String {
        var parts: [String]
        switch cdn.inSync {
        case true?: parts = ["in sync"]
        case false?:
            parts = [cdn.missingSince.map { "missing since \($0.shownTime)" } ?? "stale since \(time(cdn.staleSince))"]
            if let refresh = cdn.expectedRefresh { parts.append("expected refresh \(refresh.shownTime)") }
        case nil: parts = [unknownSyncText(cdn)]
        }
        if let pending = cdn.propagationPendingSince { parts.append("change pending since \(pending.shownTime)") }
        if let delay = cdn.lastPropagationDelay { parts.append("last propagation took \(DurationText.compact(delay))") }
        return parts.joined(separator: ", ")
    }

    /// What Apple said when in sync or not cannot be told (no valid origin file to compare with): no copy since when,
    /// or that it serves one; "unknown" only when it never answered about the domain.
    static func unknownSyncText(_ cdn: CDNStatus) -> String {
        if let missing = cdn.missingSince { return "no copy (Apple answers 404) since \(time(missing))" }
        if let hash = cdn.copyHash {
            return
                "serves a copy (\(hash.prefix(19))…, last seen \(time(cdn.lastAnswer))); the origin has no valid file "
                + "to compare it with"
        }
        return cdn.lastAnswer == nil ? "unknown (Apple's CDN has not answered about it yet)" : "unknown"
    }

    static func time(_ date: Date?) -> String { date?.shownTime ?? "-" }
}

import AASA
import Foundation
import MonitorCore

/// The page at `/`: the monitor's health, then one row per configured domain. Linear in the domains: each row is
/// written once into one growing string.
enum StatusPageHTML {
    static func render(_ page: StatusPage) -> String {
        var html = HTMLWriter(capacity: 4_096 + page.domains.count * 1_200)
        html.pageStart(title: "aasa-monitor: \(page.domains.count) domains", root: "")
        html.raw("<header><h1>aasa-monitor</h1><p class=\"muted\">")
        html.text(summary(page))
        html.raw("</p></header>")
        health(page, into: &html)
        domains(page, into: &html)
        html.raw("<p class=\"muted\">Refreshes every minute. A domain's page explains its findings.</p>")
        html.pageEnd()
        return html.html
    }

    /// `12 domains: 10 ready, 1 cdn_stale, 1 not checked yet`.
    static func summary(_ page: StatusPage) -> String {
        var counts: [Verdict: Int] = [:]
        var unchecked = 0
        for (_, status) in page.domains {
            if let verdict = status?.verdict { counts[verdict, default: 0] += 1 } else { unchecked += 1 }
        }
        var parts = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        if unchecked > 0 { parts.append("\(unchecked) not checked yet") }
        return "\(page.domains.count) domains" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    static func health(_ page: StatusPage, into html: inout HTMLWriter) {
        html.raw("<section><h2>Monitor</h2><dl class=\"facts\"><dt>Daemon</dt><dd>")
        html.text(page.daemon.running ? "running" : "not running")
        if let pid = page.daemon.pid { html.text(", pid \(pid)") }
        if let version = page.daemon.version { html.text(", version \(version)") }
        html.raw("</dd><dt>Started</dt><dd>")
        html.time(page.daemon.startedAt, now: page.now)
        html.raw("</dd><dt>Last cycle</dt><dd>")
        html.time(page.lastCycle, now: page.now)
        html.raw("</dd><dt>Heartbeat</dt><dd>")
        html.time(page.daemon.heartbeat, now: page.now)
        html.raw("</dd><dt>Webhook outbox</dt><dd>")
        let outbox = page.outbox
        html.text("\(outbox.pending) pending, \(outbox.retrying) retrying, \(outbox.dead) dead")
        if let next = outbox.nextAttempt {
            html.text(", next attempt ")
            html.time(next, now: page.now)
        }
        // Which receiver fails, so the operator knows whose URL or secret to look at.
        for failing in outbox.failingWebhooks {
            html.raw("<br><strong class=\"sev-error\">")
            html.text("failing: " + failing.text)
            html.raw("</strong>")
        }
        html.raw("</dd><dt>Monitor alerts</dt><dd>")
        if page.monitorAlerts.isEmpty { html.raw("none") }
        for (index, alert) in page.monitorAlerts.enumerated() {
            if index > 0 { html.raw("<br>") }
            html.text("\(alert.code) \(alert.state ?? "unknown")")
            if !alert.subject.isEmpty { html.text(" (\(alert.subject))") }
            html.raw(" since ")
            html.time(alert.since, now: page.now)
        }
        html.raw("</dd></dl></section>")
    }

    static func domains(_ page: StatusPage, into html: inout HTMLWriter) {
        html.raw(
            """
            <section><h2>Domains</h2><table class="domains"><thead><tr><th>Domain</th><th>Verdict</th>\
            <th>Since</th><th>Origin</th><th>Apple's CDN</th><th>Last propagation</th><th>Certificate expires</th>\
            <th>Open alerts</th></tr></thead><tbody>
            """)
        for (name, status) in page.domains {
            html.raw(#"<tr><td data-label="Domain">"#)
            html.domainLink(name)
            html.raw(#"</td><td data-label="Verdict">"#)
            html.verdict(status?.verdict)
            html.raw(#"</td><td data-label="Since">"#)
            html.time(status?.since, now: page.now)
            html.raw(#"</td><td data-label="Origin">"#)
            html.text(status.map(originText) ?? "–")
            html.raw(#"</td><td data-label="Apple's CDN">"#)
            html.text(status.map { cdnText($0.cdn) } ?? "–")
            html.raw(#"</td><td data-label="Last propagation">"#)
            html.text(status?.cdn.lastPropagationDelay.map { DurationText.compact($0) } ?? "–")
            html.raw(#"</td><td data-label="Certificate expires">"#)
            html.time(status?.certificate.notAfter, now: page.now)
            html.raw(#"</td><td data-label="Open alerts">"#)
            html.text(openAlerts(status?.alerts ?? []))
            if let silence = status?.silenced { html.text("; " + silence.text) }
            html.raw("</td></tr>")
        }
        html.raw("</tbody></table></section>")
    }

    /// `origin.dns firing ×2, cdn.stale pending`: one entry per code and state, sources counted.
    static func openAlerts(_ alerts: [AlertStatus]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for alert in alerts where alert.isOpen {
            let key = "\(alert.code) \(alert.state ?? "unknown")" + (alert.flapping ? " (flapping)" : "")
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        guard !order.isEmpty else { return "none" }
        return order.map { counts[$0, default: 1] > 1 ? "\($0) ×\(counts[$0, default: 1])" : $0 }.joined(
            separator: ", ")
    }

    /// The origin's side in a few words: its worst open problem of its own (the cause, not a consequence such as
    /// the root path's 404 while `.well-known` times out), or that it serves a valid file.
    static func originText(_ status: DomainStatus) -> String {
        let origin = FindingStatus.causesFirst(status.findings).filter { $0.source.rawValue.hasPrefix("origin") }
        let causes = origin.filter { $0.causedBy == nil }
        for severity in [ReportFinding.Severity.error, .warning] {
            if let finding = (causes + origin).first(where: { $0.severity == severity }) {
                return "\(severity.rawValue): \(finding.code)"
            }
        }
        return status.verdict == .originBroken ? "broken" : "serves a valid file"
    }

    /// Apple's copy in a few words.
    static func cdnText(_ cdn: CDNStatus) -> String {
        switch cdn.inSync {
        case true?: return cdn.propagationPendingSince == nil ? "in sync" : "in sync, a change pending"
        case false?:
            if let missing = cdn.missingSince { return "missing since \(missing.rfc3339)" }
            return "stale since \(cdn.staleSince?.rfc3339 ?? "–")"
        case nil: return "unknown"
        }
    }
}

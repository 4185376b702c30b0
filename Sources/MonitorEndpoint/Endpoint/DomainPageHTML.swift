import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStatus

/// The page at `/domains/NAME`: the verdict and its explanation, the difference between the origin's file and
/// Apple's copy, the propagation chart and the timeline.
enum DomainPageHTML {
    static func render(_ page: DomainPage) -> String {
        var html = HTMLWriter()
        html.pageStart(title: "\(page.domain): aasa-monitor", root: "../")
        html.raw("<p><a href=\"../\">← all domains</a></p><header class=\"top\"><div><h1 class=\"dn\">")
        html.domainName(page.domain)
        html.raw("</h1>")
        html.verdict(page.status?.verdict)
        html.raw("</div><p class=\"made\">Page made ")
        html.moment(page.now)
        // The same facts as JSON, and the badge a README or a wiki embeds.
        let path = page.domain.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ""
        html.raw(#"<br><a href="../api/v1/domains/"#)
        html.text(path)
        html.raw(#"">JSON (/api/v1/domains/…)</a> · <a href="../badge/"#)
        html.text(path)
        html.raw(#".svg">badge (/badge/….svg)</a></p></header>"#)
        if let status = page.status {
            facts(status, now: page.now, into: &html)
            findings(status, now: page.now, into: &html)
        }
        html.raw("<section><h2>Origin and Apple's copy</h2>")
        difference(page, into: &html)
        html.raw("</section><section><h2>Propagation delays</h2>")
        PropagationChart.render(page.propagations, into: &html)
        html.raw("</section>")
        timeline(page, into: &html)
        html.pageEnd()
        return html.html
    }

    static func facts(_ status: DomainStatus, now: Date, into html: inout HTMLWriter) {
        html.raw("<section><dl class=\"facts\"><dt>Since</dt><dd>")
        html.time(status.since, now: now)
        html.raw("</dd><dt>Last check</dt><dd>")
        html.time(status.lastCheck, now: now)
        html.text(" (took \(String(format: "%.1f", status.lastDuration)) s)")
        html.raw("</dd><dt>Apple's CDN</dt><dd>")
        html.text(StatusText.cdnText(status.cdn))
        html.raw("</dd><dt>Certificate expires</dt><dd>")
        html.time(status.certificate.notAfter, now: now)
        html.raw("</dd><dt>Alerts</dt><dd>")
        if let silence = status.silenced {
            html.text("nothing about it is sent: " + silence.text)
            html.raw("<br>")
        }
        if status.alerts.isEmpty { html.raw("none") }
        for (index, alert) in status.alerts.enumerated() {
            if index > 0 { html.raw("<br>") }
            let subject = alert.subject.isEmpty ? "" : " \(alert.subject)"
            html.text("\(alert.code) [\(alert.source.rawValue)]\(subject): \(alert.state ?? "unknown") since ")
            html.time(alert.passingSince ?? alert.since, now: now)
            // A flapping alert is held open: say until when, as `status` does.
            if let flapping = StatusText.flappingText(alert) { html.text("; " + flapping) }
            // Each silence that mutes this alert, and only this alert's: a code's silence leaves the others told.
            for silence in alert.silencedBy { html.text("; not sent: " + silence.text) }
        }
        html.raw("</dd></dl></section>")
    }

    /// Causes first, each with its consequences nested under it (as `status` and `check` indent them), and with
    /// what it follows from, its meaning and what to do.
    static func findings(_ status: DomainStatus, now: Date, into html: inout HTMLWriter) {
        html.raw("<section><h2>Findings</h2>")
        if status.findings.isEmpty { html.raw("<p>None: the last check found nothing to report.</p>") }
        var open = 0
        for (finding, depth) in FindingStatus.causeTree(status.findings) {
            // A finding at `depth` sits inside its cause's box: close the boxes of the findings it does not follow.
            while open > depth {
                html.raw("</div>")
                open -= 1
            }
            html.raw(depth > 0 ? #"<div class="finding consequence">"# : #"<div class="finding">"#)
            open += 1
            describe(finding, now: now, into: &html)
        }
        for _ in 0..<open { html.raw("</div>") }
        html.raw("</section>")
    }

    static func describe(_ finding: FindingStatus, now: Date, into html: inout HTMLWriter) {
        html.raw(#"<p><strong class="sev-"#)
        html.text(finding.severity.rawValue)
        html.raw(#"">"#)
        html.text("\(finding.severity.rawValue) \(finding.code)")
        html.raw("</strong> ")
        let subject = finding.subject.isEmpty ? "" : " \(finding.subject)"
        html.text("[\(finding.source.rawValue)]\(subject), since ")
        html.time(finding.since, now: now)
        html.raw("</p><p class=\"message\">")
        html.text(finding.message)
        if let cause = finding.causedBy {
            html.raw("</p><p class=\"cause\"><em>")
            html.text(cause.text.prefix(1).uppercased() + cause.text.dropFirst() + ".")
            html.raw("</em>")
        }
        if finding.code.isRegistered {
            // The registry's texts, as `aasa-monitor explain CODE` prints them.
            html.raw("</p><p><em>Meaning:</em> ")
            html.text(finding.code.meaning)
            html.raw("</p><p><em>Why Apple cares:</em> ")
            html.text(finding.code.whyAppleCares)
        }
        html.raw("</p><p><em>What to do:</em> ")
        html.text(finding.code.fix)
        html.raw("</p>")
    }

    static func difference(_ page: DomainPage, into html: inout HTMLWriter) {
        guard let diff = page.difference else {
            html.raw("<p>")
            html.text("Cannot compare: \(page.differenceNote ?? "unknown").")
            html.raw("</p>")
            return
        }
        if diff.sameMeaning {
            html.raw("<p>Apple serves the origin's meaning (")
            html.text(diff.hashB)
            html.raw(").</p>")
            return
        }
        html.raw("<p>")
        html.text(
            "Apple's copy (\(diff.hashA)) differs from the origin's file (\(diff.hashB))"
                + (diff.canChangeBehavior
                    ? "; devices behave differently until Apple catches up:"
                    : " only in "
                        + "ways that do not change what devices do:"))
        html.raw("</p><ul>")
        for change in diff.changes {
            html.raw("<li><code>")
            html.text(change.path)
            html.raw("</code> ")
            html.text(
                "\(change.kind.rawValue): \(change.summary)" + (change.affectsBehavior ? "" : " (no behaviour change)"))
            html.raw("</li>")
        }
        html.raw("</ul>")
    }

    static func timeline(_ page: DomainPage, into html: inout HTMLWriter) {
        html.raw("<section><h2>Timeline</h2>")
        if page.timeline.isEmpty { html.raw("<p>No events yet.</p>") }
        html.raw(#"<table class="timeline"><tbody>"#)
        for event in page.timeline.reversed() {
            html.raw(#"<tr><td class="when">"#)
            html.time(event.at, now: page.now)
            html.raw(#"</td><td class="kind">"#)
            html.text(event.kind.rawValue)
            html.raw("</td><td>")
            // HistoryText's words for the detail, without its leading time and kind.
            html.text(HistoryText.line(event).split(separator: " ").dropFirst(2).joined(separator: " "))
            html.raw("</td></tr>")
        }
        html.raw("</tbody></table></section>")
    }
}

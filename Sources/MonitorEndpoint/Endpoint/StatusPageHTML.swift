import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStatus
import MonitorStore

/// The page at `/`: the monitor's health, then one page of the domains, problems first, with a filter form and a
/// pager. Its size follows the page (at most `DomainListing.maximumLimit` rows), not the fleet.
enum StatusPageHTML {
    static func render(_ page: StatusPage) -> String {
        var html = HTMLWriter(capacity: 8_192 + page.domains.count * 1_600)
        html.pageStart(title: "aasa-monitor: \(number(page.configuredCount)) domains", root: "")
        html.raw("<header class=\"top\"><div><h1>aasa-monitor</h1><p class=\"muted\">")
        html.text(summary(page))
        html.raw("</p></div><p class=\"made\">Page made ")
        html.moment(page.now)
        // The same list as JSON for scripts (the HTTP API), and the Prometheus metrics.
        html.raw(
            """
            <br><a href="api/v1/domains">JSON: /api/v1/domains</a> · <a href="metrics">metrics</a></p></header>
            """)
        health(page, into: &html)
        html.raw("<section><h2>Domains</h2>")
        filterForm(page, into: &html)
        pager(page, into: &html)
        domains(page, into: &html)
        if page.domains.count > 20 { pager(page, into: &html) }
        html.raw("</section>")
        html.raw(
            """
            <p class="muted">Refreshes every minute. Problems first: the worst verdict, then by name. \
            A domain's page explains its findings.</p>
            """)
        html.pageEnd()
        return html.html
    }

    /// `1,234 domains: 3 origin_broken, 1 cdn_stale, 2 not checked yet, 1,228 ready` (the counts of the domains
    /// matching the name filter; without one, of every configured domain).
    static func summary(_ page: StatusPage) -> String {
        let counts = page.listing.counts
        let parts = ListedVerdict.allCases.compactMap { verdict in
            counts[verdict].map { "\(number($0)) \(label(verdict))" }
        }
        let named = page.query.nameContains.trimmingCharacters(in: .whitespaces)
        let subject =
            named.isEmpty
            ? "\(number(page.configuredCount)) domains"
            : "\(number(page.listing.countAll)) of \(number(page.configuredCount)) domains match “\(named)”"
        return subject + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    /// A verdict as the page names it.
    static func label(_ verdict: ListedVerdict) -> String {
        verdict == .notChecked ? "not checked yet" : verdict.rawValue
    }

    /// `1,234`: a count as people read it.
    static func number(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var out = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// A form that filters by verdict and by name, sent as a GET to this page: no script (the policy allows a form
    /// to post to this origin only). Each verdict says how many domains it would list.
    static func filterForm(_ page: StatusPage, into html: inout HTMLWriter) {
        html.raw(#"<form class="filter" method="get" action="."><fieldset><legend>Verdict</legend>"#)
        // Only the verdicts some domain has (and any ticked): five empty boxes would only be noise.
        for verdict in ListedVerdict.allCases
        where page.listing.counts[verdict, default: 0] > 0 || page.query.verdicts.contains(verdict) {
            html.raw(#"<label><input type="checkbox" name="verdict" value=""#)
            html.text(verdict.rawValue)
            html.raw(page.query.verdicts.contains(verdict) ? #"" checked> "# : #""> "#)
            html.verdict(verdict.verdict)
            html.text(" \(number(page.listing.counts[verdict] ?? 0))")
            html.raw("</label>")
        }
        html.raw(#"</fieldset><label class="name">Name contains <input type="search" name="q" value=""#)
        html.text(page.query.nameContains)
        html.raw(#"" maxlength="253" autocomplete="off" spellcheck="false"></label>"#)
        if page.query.limit != DomainListing.defaultLimit {
            html.raw(#"<input type="hidden" name="limit" value=""#)
            html.text(page.query.limit)
            html.raw(#"">"#)
        }
        html.raw(#"<button type="submit">Filter</button> <a href=""#)
        html.text(DomainListing.Query(verdicts: Set(ListedVerdict.allCases.filter(\.isProblem))).pageLink(offset: 0))
        html.raw(#"">problems only</a>"#)
        if page.query.isFiltered { html.raw(#" · <a href=".">all domains</a>"#) }
        html.raw("</form>")
    }

    /// `Domains 201–400 of 1,234 · ← previous 200 · next 200 →`.
    static func pager(_ page: StatusPage, into html: inout HTMLWriter) {
        let listing = page.listing
        let limit = page.query.limit
        html.raw(#"<nav class="pager" aria-label="pages"><span>"#)
        if listing.rows.isEmpty {
            html.text(listing.total == 0 ? "No domain matches." : "No domain on this page of \(number(listing.total)).")
        } else {
            html.text(
                "Domains \(number(listing.offset + 1))–\(number(listing.offset + listing.rows.count))"
                    + " of \(number(listing.total))" + (page.query.isFiltered ? " matching" : ""))
        }
        html.raw("</span>")
        if listing.offset > 0 {
            html.raw(#" <a rel="prev" href=""#)
            html.text(page.query.pageLink(offset: max(min(listing.offset, listing.total) - limit, 0)))
            html.raw(#"">← previous "#)
            html.text(limit)
            html.raw("</a>")
        }
        if listing.offset + listing.rows.count < listing.total, !listing.rows.isEmpty {
            html.raw(#" <a rel="next" href=""#)
            html.text(page.query.pageLink(offset: listing.offset + listing.rows.count))
            html.raw(#"">next "#)
            html.text(min(limit, listing.total - listing.offset - listing.rows.count))
            html.raw(" →</a>")
        }
        html.raw("</nav>")
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

    /// One row per domain in seven columns, so a fleet's table fits a laptop's width: the verdict carries its age,
    /// Apple's copy its last propagation delay.
    static func domains(_ page: StatusPage, into html: inout HTMLWriter) {
        html.raw(
            """
            <div class="scroll"><table class="domains"><thead><tr><th>Domain</th><th>Verdict</th><th>Last 
            """)
        html.text(StatusPageReader.stripLength)
        html.raw(
            """
             checks</th><th>Origin</th><th>Apple's CDN</th><th>Certificate</th><th>Alerts</th></tr></thead>\
            <tbody>
            """)
        for (name, status) in page.domains {
            html.raw(#"<tr><td class="name" data-label="Domain">"#)
            html.domainLink(name)
            html.raw(#"</td><td data-label="Verdict">"#)
            html.verdict(status?.verdict)
            if let since = status?.since {
                html.raw(#"<br><small>since "#)
                html.age(since, now: page.now)
                html.raw("</small>")
            }
            html.raw(#"</td><td data-label="Last checks">"#)
            strip(page.recentChecks[name] ?? [], into: &html)
            html.raw(#"</td><td data-label="Origin">"#)
            html.text(status.map(originText) ?? "–")
            html.raw(#"</td><td data-label="Apple's CDN">"#)
            html.text(status.map { cdnText($0.cdn, now: page.now) } ?? "–")
            if let delay = status?.cdn.lastPropagationDelay {
                html.raw("<br><small>")
                html.text("last propagation \(DurationText.compact(delay))")
                html.raw("</small>")
            }
            html.raw(#"</td><td data-label="Certificate">"#)
            if status?.certificate.notAfter != nil { html.raw("expires ") }
            html.age(status?.certificate.notAfter, now: page.now)
            html.raw(#"</td><td data-label="Alerts">"#)
            html.text(openAlerts(status?.alerts ?? []))
            if let silence = status?.silenced { html.text("; nothing sent: " + silence.text) }
            html.raw("</td></tr>")
        }
        html.raw("</tbody></table></div>")
    }

    /// The newest checks as a strip of cells coloured by verdict, oldest left, as Gatus shows them: one cell per
    /// check, grouped by run (the title says the run's verdict, length and span); cells before the first check are
    /// grey, so every strip has the same length. Readable without colour through its label.
    static func strip(_ checks: [RecentCheck], into html: inout HTMLWriter) {
        let length = StatusPageReader.stripLength
        html.raw(#"<span class="strip" role="img" aria-label=""#)
        html.text(stripLabel(checks))
        html.raw(#"">"#)
        if checks.count < length {
            html.raw(#"<span class="run none" title="no check yet">"#)
            for _ in checks.count..<length { html.raw("<i></i>") }
            html.raw("</span>")
        }
        var index = checks.startIndex
        while index < checks.endIndex {
            let run = checks[index]
            var end = index
            while end < checks.endIndex, checks[end] == run { end += 1 }
            html.raw(#"<span class="run v-"#)
            html.text(run.verdict.rawValue)
            html.raw(#"" title=""#)
            html.text(
                "\(label(run.verdict)): \(end - index) check\(end - index == 1 ? "" : "s")"
                    + (run.firstSeen == run.lastSeen
                        ? " at \(run.firstSeen.rfc3339)" : " from \(run.firstSeen.rfc3339) to \(run.lastSeen.rfc3339)"))
            html.raw(#"">"#)
            for _ in index..<end { html.raw("<i></i>") }
            html.raw("</span>")
            index = end
        }
        html.raw("</span>")
    }

    /// `last 30 checks: 20 ready, then 10 origin_broken`.
    static func stripLabel(_ checks: [RecentCheck]) -> String {
        guard !checks.isEmpty else { return "no check yet" }
        var runs: [(verdict: ListedVerdict, count: Int)] = []
        for check in checks {
            if runs.last?.verdict == check.verdict {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((check.verdict, 1))
            }
        }
        return "last \(checks.count) checks: "
            + runs.map { "\($0.count) \(label($0.verdict))" }.joined(separator: ", then ")
    }

    /// `origin.dns firing ×2, cdn.stale pending`: one entry per code and state, sources counted.
    static func openAlerts(_ alerts: [AlertStatus]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for alert in alerts where alert.isOpen {
            let key =
                "\(alert.code) \(alert.state ?? "unknown")" + (alert.flapping ? " (flapping)" : "")
                + (alert.silencedBy.first.map { " (silenced until \(RFC3339.string($0.endsAt ?? .distantPast)))" } ?? "")
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
        return status.verdict == .originBroken ? "broken" : "valid file"
    }

    /// Apple's copy in a few words: `in sync`, `stale for 2h`, `missing for 3d`.
    static func cdnText(_ cdn: CDNStatus, now: Date) -> String {
        func lasting(_ since: Date?) -> String {
            since.map { " for \(DurationText.compact(max(now.timeIntervalSince($0), 0)))" } ?? ""
        }
        switch cdn.inSync {
        case true?: return cdn.propagationPendingSince == nil ? "in sync" : "in sync, a change pending"
        case false?:
            if let missing = cdn.missingSince { return "missing" + lasting(missing) }
            return "stale" + lasting(cdn.staleSince)
        case nil:
            // What Apple said, even with no valid origin file to compare it with.
            if let missing = cdn.missingSince { return "no copy" + lasting(missing) }
            if cdn.copyHash != nil { return "serves a copy (not comparable)" }
            return "unknown"
        }
    }
}

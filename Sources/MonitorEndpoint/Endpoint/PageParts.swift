import Foundation
import MonitorCore
import MonitorEvaluation

/// Pieces both pages use: the document frame, verdicts, times.
extension HTMLWriter {
    /// `<!doctype html>` up to `<body>`: no script, the style sheet from our own origin, a refresh every minute
    /// that works with script off. Links are relative (`root` is the way back to `/`: `""` or `"../"`), so the
    /// pages also work behind a reverse proxy that serves them under a path such as `/aasa/`.
    mutating func pageStart(title: String, root: StaticString) {
        raw(
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta http-equiv="refresh" content="60"><meta name="referrer" content="no-referrer">\
            <link rel="stylesheet" href="
            """)
        raw(root)
        raw(#"style.css"><title>"#)
        text(title)
        raw("</title></head><body>")
    }

    mutating func pageEnd() {
        raw("</body></html>\n")
    }

    /// The verdict as a word with a mark and a colour, readable without the colour.
    mutating func verdict(_ verdict: Verdict?) {
        guard let verdict else {
            raw(#"<span class="verdict v-unknown">… not checked yet</span>"#)
            return
        }
        raw(#"<span class="verdict v-"#)
        text(verdict.rawValue)
        raw(#"">"#)
        raw(verdict == .ready ? "✓ " : verdict == .originBroken || verdict == .expectationFailed ? "✗ " : "! ")
        text(verdict.rawValue)
        raw("</span>")
    }

    /// A time as RFC 3339 with its age, or a dash.
    mutating func time(_ date: Date?, now: Date) {
        guard let date else {
            raw("–")
            return
        }
        raw(#"<time datetime=""#)
        text(date.rfc3339)
        raw(#"">"#)
        text(date.rfc3339)
        let age = now.timeIntervalSince(date)
        text(age >= 0 ? " (\(DurationText.compact(age)) ago)" : " (in \(DurationText.compact(-age)))")
        raw("</time>")
    }

    /// A time as RFC 3339 alone (when the page was made).
    mutating func moment(_ date: Date) {
        raw(#"<time datetime=""#)
        text(date.rfc3339)
        raw(#"">"#)
        text(date.rfc3339)
        raw("</time>")
    }

    /// A time as its age (`4m ago`, `in 59d`) with the RFC 3339 time as its title, or a dash: the overview's
    /// columns stay narrow enough for a fleet's table.
    mutating func age(_ date: Date?, now: Date) {
        guard let date else {
            raw("–")
            return
        }
        raw(#"<time datetime=""#)
        text(date.rfc3339)
        raw(#"" title=""#)
        text(date.rfc3339)
        raw(#"">"#)
        let age = now.timeIntervalSince(date)
        text(age >= 0 ? "\(DurationText.compact(age)) ago" : "in \(DurationText.compact(-age))")
        raw("</time>")
    }

    /// A link to a domain's page, relative to the overview.
    mutating func domainLink(_ domain: String) {
        raw(#"<a class="dn" href="domains/"#)
        text(domain.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? "")
        raw(#"">"#)
        domainName(domain)
        raw("</a>")
    }

    /// A domain name that never breaks inside a label: each label (with its dot) is a `nowrap` span, and a line may
    /// break only between them (`<wbr>`), so a narrow screen shows `shop-eu.` / `example.com`, never `shop-` / `eu`.
    /// Where the name fits, the style sheet keeps it on one line.
    mutating func domainName(_ domain: String) {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            if index > 0 { raw("<wbr>") }
            raw("<span>")
            text(index < labels.count - 1 ? label + "." : String(label))
            raw("</span>")
        }
    }
}

import Foundation
import MonitorCore

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

    /// A link to a domain's page, relative to the overview.
    mutating func domainLink(_ domain: String) {
        raw(#"<a href="domains/"#)
        text(domain.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? "")
        raw(#"">"#)
        text(domain)
        raw("</a>")
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// The propagation delays of one domain as an inline SVG line chart, drawn on the server: no script, no image
/// file, nothing loaded. Time runs left to right over the retained history; the delay grows upwards from 0.
/// Colours are presentation attributes (allowed by the CSP, unlike `style=`), so the chart reads without CSS.
enum PropagationChart {
    static let width = 640.0
    static let height = 220.0
    /// Room for the axis labels.
    static let left = 64.0
    static let bottom = 28.0
    static let top = 12.0
    static let right = 16.0

    static func render(_ points: [Propagation], into html: inout HTMLWriter) {
        guard let first = points.first, let last = points.last else {
            html.raw("<p class=\"muted\">No propagation recorded yet: the chart appears once Apple has caught up ")
            html.raw("with an origin change the monitor saw.</p>")
            return
        }
        let maximum = max(points.map(\.delay).max() ?? 1, 1)
        let span = last.at.timeIntervalSince(first.at)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func x(_ point: Propagation) -> Double {
            span > 0 ? left + plotWidth * point.at.timeIntervalSince(first.at) / span : left + plotWidth / 2
        }
        func y(_ point: Propagation) -> Double { top + plotHeight * (1 - point.delay / maximum) }

        html.raw(#"<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#)
        html.text("\(Int(width)) \(Int(height))")
        html.raw(#"" role="img" aria-label=""#)
        html.text("propagation delays of \(points.count) origin changes, at most \(DurationText.compact(maximum))")
        html.raw(##""><line class="axis" stroke="#6e7781" x1=""##)
        html.text(number(left))
        html.raw(#"" y1=""#)
        html.text(number(top))
        html.raw(#"" x2=""#)
        html.text(number(left))
        html.raw(#"" y2=""#)
        html.text(number(height - bottom))
        html.raw(##""/><line class="axis" stroke="#6e7781" x1=""##)
        html.text(number(left))
        html.raw(#"" y1=""#)
        html.text(number(height - bottom))
        html.raw(#"" x2=""#)
        html.text(number(width - right))
        html.raw(#"" y2=""#)
        html.text(number(height - bottom))
        html.raw(#""/>"#)
        label(DurationText.compact(maximum), x: left - 6, y: top + 4, anchor: "end", into: &html)
        label("0", x: left - 6, y: height - bottom, anchor: "end", into: &html)
        label(first.at.rfc3339, x: left, y: height - 8, anchor: "start", into: &html)
        if span > 0 { label(last.at.rfc3339, x: width - right, y: height - 8, anchor: "end", into: &html) }
        if points.count > 1 {
            html.raw(##"<polyline class="line" fill="none" stroke="#0969da" stroke-width="2" points=""##)
            html.text(points.map { "\(number(x($0))),\(number(y($0)))" }.joined(separator: " "))
            html.raw(#""/>"#)
        }
        for point in points {
            html.raw(##"<circle class="dot" fill="#0969da" r="3" cx=""##)
            html.text(number(x(point)))
            html.raw(#"" cy=""#)
            html.text(number(y(point)))
            html.raw(#""><title>"#)
            html.text("\(point.at.rfc3339): \(DurationText.compact(point.delay))")
            html.raw("</title></circle>")
        }
        html.raw("</svg><figcaption class=\"muted\">")
        html.text(
            "Delay from an origin change to Apple serving it, \(points.count) measurement(s); the last took "
                + DurationText.compact(last.delay) + ".")
        html.raw("</figcaption></figure>")
    }

    private static func label(_ text: String, x: Double, y: Double, anchor: StaticString, into html: inout HTMLWriter) {
        html.raw(#"<text font-size="12" fill="currentColor" x=""#)
        html.text(number(x))
        html.raw(#"" y=""#)
        html.text(number(y))
        html.raw(#"" text-anchor=""#)
        html.raw(anchor)
        html.raw(#"">"#)
        html.text(text)
        html.raw("</text>")
    }

    /// One decimal is finer than a pixel.
    private static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// The human `history DOMAIN`: one line per event, time then kind then its detail: a verdict's change with the
/// codes it rests on (`because`) and those fixed (`cleared`), alerts firing and resolving and what of them was sent;
/// then the outcome runs. Everything oldest first, read down like a log, so the newest line is the last printed
/// (the events' JSON order; the JSON's runs stay newest first, as the API documents them).
package enum HistoryText {
    package static func render(_ report: HistoryReport) -> String {
        guard !report.events.isEmpty else { return "\(report.domain): no history yet" }
        var lines = report.events.map(line)
        if !report.runs.isEmpty {
            lines.append("outcomes, oldest first:")
            lines += report.runs.reversed().map(runLine)
        }
        return lines.joined(separator: "\n")
    }

    /// `origin_broken from 2026-11-23T09:12:00Z to 2026-11-23T11:40:00Z, 37 checks`.
    static func runLine(_ run: StoredRun) -> String {
        "  \(run.verdict) from \(run.firstSeen.shownTime) to \(run.lastSeen.shownTime), \(run.checks) check"
            + (run.checks == 1 ? "" : "s")
    }

    /// Keys read in this order where an event has them (a verdict's change, then why; an alert's identity, then
    /// its severity); the others follow by name.
    static let leadingKeys = ["from", "to", "because", "cleared", "code", "source", "subject", "severity"]

    package static func line(_ event: TimelineEvent) -> String {
        let ordered: [(key: String, value: DetailValue)]
        switch event.kind {
        case .verdictChanged, .alertFiring, .alertResolved:
            let rank = Dictionary(uniqueKeysWithValues: leadingKeys.enumerated().map { ($1, $0) })
            ordered = event.detail.sorted { lhs, rhs in
                let (a, b) = (rank[lhs.key] ?? rank.count, rank[rhs.key] ?? rank.count)
                return a != b ? a < b : lhs.key < rhs.key
            }
        default:
            ordered = event.detail.sorted { $0.key < $1.key }
        }
        let detail = ordered.filter { !sendingKeys.contains($0.key) }.map { key, value in
            // Stored JSON turns whole seconds into integers, so both forms are durations here.
            if key == "delay" || key == "resolution" {
                switch value {
                case .double(let seconds): return "\(key)=\(DurationText.compact(seconds))"
                case .int(let seconds): return "\(key)=\(DurationText.compact(Double(seconds)))"
                default: break
                }
            }
            return "\(key)=\(text(value))"
        }
        return ([event.at.shownTime, event.kind.rawValue] + detail + sending(event)).joined(separator: " ")
    }

    static func text(_ value: DetailValue) -> String {
        switch value {
        case .null: "-"
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .array(let values): values.map(text).joined(separator: ",")
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
                .joined(separator: " ") + "}"
        }
    }
}

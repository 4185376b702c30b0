import AASA
import MonitorEvaluation

extension IncidentDigest {
    /// The item a digest is named after: the first alert that started, else the first recovered, else the first
    /// still failing; its code is the `code` of the chat event.
    var lead: Item? { started.first ?? recovered.first ?? stillFailing.first }

    /// The most severe failing item's severity (`info` when nothing fails): the chat event's colour.
    var worstSeverity: ReportFinding.Severity {
        (started + stillFailing).map(\.severity).max() ?? .info
    }

    /// One line: `origin.bot_blocked started failing (2 more follow from it); 1 recovered`.
    var summary: String {
        var parts: [String] = []
        if let first = started.first {
            var text = "\(first.code) started failing" + (first.flapping == nil ? "" : " again (flapping: held open)")
            if !first.consequences.isEmpty { text += " (\(first.consequences.count) more follow from it)" }
            if started.count > 1 { text += ", with \(started.count - 1) other alert(s)" }
            parts.append(text)
        }
        if !stillFailing.isEmpty { parts.append("\(stillFailing.count) still failing") }
        if !recovered.isEmpty {
            parts.append(
                started.isEmpty && stillFailing.isEmpty
                    ? "all clear: " + recovered.map(\.message).joined(separator: "; ")
                    : "\(recovered.count) recovered")
        }
        if parts.isEmpty, let note = notes.first { parts.append(note) }
        return parts.joined(separator: "; ")
    }
}

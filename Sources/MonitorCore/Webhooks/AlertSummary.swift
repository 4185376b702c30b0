import AASA
import Foundation
import MonitorEvaluation

/// The human reading of an event shared by the chat formats: the domain, what broke, Apple's reason, what to do.
///
/// Plain strings; each format escapes or limits them its own way, and an encoder writes the JSON.
struct AlertSummary {
    /// One line: `🔴 example.com: origin.redirect`, `✅ Resolved — example.com: origin.redirect`, ….
    var title: String
    /// The finding's message, or a digest's lines.
    var message: String
    /// The lines of `message` a format may set in bold: the whole of a one-line message, a digest's section
    /// headings. Each is emphasised on its own: Slack's bold does not span lines.
    var emphasised: Set<String> = []
    /// Apple's `Apple-Failure-Reason`, when the detail carries one.
    var appleReason: String?
    /// A short fix for the code, for alerts that fire.
    var advice: String?
    /// Labelled facts: domain, code, severity, source, subject, verdict.
    var facts: [(label: String, value: String)]

    init(event: MonitorEvent) {
        let status: String
        advice = nil
        switch event.payload {
        case .incident(let digest, let verdict):
            self = AlertSummary(digest: digest, verdict: verdict, domain: event.domain)
            return
        case .alertFiring(let alert, let reminder, _):
            let icon = alert.severity == .error ? "🔴" : "🟠"
            status = reminder ? "\(icon) Still failing" : "\(icon) \(alert.severity.rawValue.capitalized)"
            advice = alert.code.fix
        case .alertResolved: status = "✅ Resolved"
        case .originChanged: status = "📝 Origin changed"
        case .cdnPropagated: status = "📦 CDN caught up"
        case .monitorFiring: status = "🛑 Monitor"
        case .monitorResolved: status = "✅ Monitor recovered"
        case .test: status = "🧪 Test"
        }
        // The facts are the event's JSON fields, in words: every kind has them (its own, or its kind's fixed ones).
        let fields = EventFields(event.payload)
        title = "\(status) — \(event.domain.isEmpty ? "aasa-monitor itself" : event.domain): \(fields.code)"
        message = fields.message
        emphasised = [fields.message]
        appleReason = Self.appleReason(in: fields.detail)
        var facts: [(label: String, value: String)] = [("Code", fields.code)]
        if !event.domain.isEmpty { facts.insert(("Domain", event.domain), at: 0) }
        facts.append(("Severity", fields.severity.rawValue))
        if let source = fields.source { facts.append(("Source", source.rawValue)) }
        if !fields.subject.isEmpty { facts.append(("Subject", fields.subject)) }
        if let verdict = fields.verdict { facts.append(("Verdict", verdict.rawValue)) }
        if fields.flapping { facts.append(("Flapping", "yes: held firing until stable")) }
        self.facts = facts
    }

    /// The one message of a domain's check: title by what happened, then sections, causes first.
    init(digest: IncidentDigest, verdict: Verdict?, domain: String) {
        if let first = digest.started.first {
            let icon = first.severity == .error ? "🔴" : "🟠"
            let state = first.flapping == nil ? "Failing" : "Failing again, flapping"
            title = "\(icon) \(state) — \(domain): \(first.code)"
        } else if let reminder = digest.stillFailing.first(where: \.reminder) {
            title = "🔁 Still failing — \(domain): \(reminder.code)"
        } else if !digest.recovered.isEmpty {
            title =
                digest.stillFailing.isEmpty ? "✅ Resolved — \(domain)" : "🟠 Partly recovered — \(domain)"
        } else {
            title = "📝 \(domain): \(digest.notes.first.map { _ in "changes" } ?? "update")"
        }
        var lines: [String] = []
        var headings: Set<String> = []
        func section(_ heading: String, _ items: [IncidentDigest.Item], advise: Bool, recovered: Bool = false) {
            guard !items.isEmpty else { return }
            lines.append(heading)
            headings.insert(heading)
            for item in items {
                lines.append("• \(item.code) (\(item.source.rawValue)): \(item.message)")
                if let flapping = item.flapping {
                    lines.append("   " + Self.flappingText(flapping, recovered: recovered))
                }
                if let reason = item.appleReason { lines.append("   Apple's reason: \(reason)") }
                if advise { lines.append("   What to do: \(item.code.fix)") }
                for consequence in item.consequences.prefix(5) { lines.append("   ↳ because of it: \(consequence)") }
            }
        }
        section("Started failing:", digest.started, advise: true)
        section("Still failing:", digest.stillFailing, advise: digest.started.isEmpty)
        section("Recovered:", digest.recovered, advise: false, recovered: true)
        if !digest.notes.isEmpty {
            lines.append("Changes:")
            headings.insert("Changes:")
            lines += digest.notes.map { "• \($0)" }
        }
        message = lines.joined(separator: "\n")
        emphasised = headings
        appleReason = nil
        advice = nil
        var facts: [(label: String, value: String)] = [("Domain", domain)]
        if let verdict { facts.append(("Verdict", verdict.rawValue)) }
        if !digest.incident.isEmpty { facts.append(("Incident", digest.incident)) }
        self.facts = facts
    }

    /// A flapping alert in words: that it is held open, why, and until when.
    ///
    /// `Flapping: it fired 3 times within 1h, so it stays open until it has passed for 1h: you hear of it again
    /// when it is really fixed, not at every blip.`
    static func flappingText(_ flapping: IncidentDigest.Flapping, recovered: Bool) -> String {
        if recovered {
            return "It had been flapping: it has now passed long enough to be resolved for good."
        }
        var text = "Flapping: it fired "
        if let firings = flapping.firings { text += "\(firings) times" } else { text += "again and again" }
        text += flapping.window.map { " within \(DurationText.compact($0))" } ?? " in a short time"
        if let until = flapping.heldUntil {
            text += "; it passes now, and is held open until \(RFC3339.string(until)) unless it fails again before."
        } else {
            text += ", so it stays open until it has passed for "
            text += flapping.hold.map { DurationText.compact($0) } ?? "a while"
            text += ": you hear of it again when it is really fixed, not at every blip."
        }
        return text
    }

    /// `apple_failure_reason` as a string, or an object with `code`/`text`/`raw` (the parsed header).
    static func appleReason(in detail: FindingDetail) -> String? {
        switch detail["apple_failure_reason"] {
        case .string(let text) where !text.isEmpty:
            return text
        case .object(let parts):
            if let raw = parts["raw"]?.stringValue, !raw.isEmpty { return raw }
            let pieces = [parts["code"]?.stringValue, parts["text"]?.stringValue].compactMap { $0 }
            return pieces.isEmpty ? nil : pieces.joined(separator: " ")
        default:
            return nil
        }
    }
}

extension String {
    /// At most `limit` UTF-16 code units (how Discord and Slack count), cut on a `Character` boundary.
    func truncated(toUTF16 limit: Int) -> String {
        guard utf16.count > limit else { return self }
        var result = ""
        var used = 1  // room for the ellipsis
        for character in self {
            let size = character.utf16.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }
}

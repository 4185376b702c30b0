import AASA
import Foundation
import MonitorCore
import MonitorEvaluation

/// A silence as `status --json`, `silence list --json` and the page show it (keys are public interface).
package struct SilenceStatus: Sendable, Hashable, Encodable {
    /// The row id of a stored silence, or `maintenance:NAME` for a configured window.
    package var id: String
    /// `null` for every domain.
    @NullWhenAbsent package var domains: [String]?
    @NullWhenAbsent package var code: FindingCode?
    @RFC3339Time package var startsAt: Date?
    @RFC3339Time package var endsAt: Date?
    package var author: String
    package var reason: String
    /// `active`, `pending` (starts later) or `ended`.
    package var state: String
    /// `silenced until … by …: reason`.
    package var text: String

    package init(_ silence: Silence, now: Date) {
        id = silence.id
        domains = silence.domains
        code = silence.code
        startsAt = silence.startsAt
        endsAt = silence.endsAt
        author = silence.author
        reason = silence.reason
        state = silence.isActive(at: now) ? "active" : silence.startsAt > now ? "pending" : "ended"
        text = silence.text + (silence.code.map { " (only \($0))" } ?? "")
    }

    /// `text` for a person reading the command's text: the end as `shownTime` writes it (local time on a
    /// terminal); `text`, in JSON, stays UTC.
    package var shownText: String {
        Silence.text(until: endsAt?.shownTime ?? "-", author: author, reason: reason)
            + (code.map { " (only \($0))" } ?? "")
    }

    enum CodingKeys: String, CodingKey {
        case id, domains, code, author, reason, state, text
        case startsAt = "starts_at"
        case endsAt = "ends_at"
    }
}

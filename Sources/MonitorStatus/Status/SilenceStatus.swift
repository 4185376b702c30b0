import AASA
import Foundation
import MonitorCore

/// A silence as `status --json`, `silence list --json` and the page show it (keys are public interface).
public struct SilenceStatus: Sendable, Hashable, Encodable {
    /// The row id of a stored silence, or `maintenance:NAME` for a configured window.
    public var id: String
    /// `null` for every domain.
    @NullWhenAbsent public var domains: [String]?
    @NullWhenAbsent public var code: FindingCode?
    @RFC3339Time public var startsAt: Date?
    @RFC3339Time public var endsAt: Date?
    public var author: String
    public var reason: String
    /// `active`, `pending` (starts later) or `ended`.
    public var state: String
    /// `silenced until … by …: reason`.
    public var text: String

    public init(_ silence: Silence, now: Date) {
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
    public var shownText: String {
        Silence.text(until: endsAt?.shownTime ?? "-", author: author, reason: reason)
            + (code.map { " (only \($0))" } ?? "")
    }

    enum CodingKeys: String, CodingKey {
        case id, domains, code, author, reason, state, text
        case startsAt = "starts_at"
        case endsAt = "ends_at"
    }
}

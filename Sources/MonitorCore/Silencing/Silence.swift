import AASA
import Foundation
import MonitorEvaluation

/// A stretch of time during which a person (or a maintenance window) asked that nothing be sent about some domains.
///
/// Silences mute receivers, never the monitor: the alert state machine runs as usual, `status` shows the alerts
/// with "silenced until … by …: reason", and `SilenceGate` decides what is sent when the silence ends. They are
/// rows of the state database (`aasa-monitor silence add`) or occurrences of a configured maintenance window.
public struct Silence: Sendable, Hashable, Codable {
    /// The store's row id for a silence added with `silence add`; `maintenance:NAME` for a window's occurrence.
    public var id: String
    /// The A-labels it covers; `nil` covers every domain (`--all`).
    public var domains: [String]?
    /// Only alerts of this finding code; `nil` mutes everything about the domains, informational events included.
    public var code: FindingCode?
    public var startsAt: Date
    public var endsAt: Date
    public var author: String
    public var reason: String

    public init(
        id: String, domains: [String]?, code: FindingCode? = nil, startsAt: Date, endsAt: Date, author: String,
        reason: String
    ) {
        self.id = id
        self.domains = domains
        self.code = code
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.author = author
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case id, domains, code, author, reason
        case startsAt = "starts_at"
        case endsAt = "ends_at"
    }

    /// In force at `now`: started, and not yet ended (the end is exclusive, so an expired silence is over at once).
    public func isActive(at now: Date) -> Bool {
        startsAt <= now && now < endsAt
    }

    /// Whether it covers `domain` at all (any code).
    public func covers(domain: String) -> Bool {
        domains?.contains(domain) ?? true
    }

    /// Whether it mutes `event`: an alert event of a covered domain (and of its code, when it names one), or any
    /// other event of a covered domain when it names no code. The monitor's own events (no domain) are never muted.
    public func mutes(_ event: MonitorEvent) -> Bool {
        guard !event.domain.isEmpty, covers(domain: event.domain) else { return false }
        switch event.payload {
        case .alertFiring(let alert, _, _), .alertResolved(let alert): return code.map { $0 == alert.code } ?? true
        case .monitorFiring, .monitorResolved, .test: return false
        case .originChanged, .cdnPropagated, .incident: return code == nil
        }
    }

    /// Whether it mutes the alert `identity`.
    public func mutes(_ identity: FindingIdentity) -> Bool {
        covers(domain: identity.domain) && (code.map { $0 == identity.code } ?? true)
    }

    /// `silenced until 2026-11-23T12:00:00Z by alice: DNS migration` — what the page and JSON say (UTC).
    public var text: String {
        Self.text(until: RFC3339.string(endsAt), author: author, reason: reason)
    }

    /// `silenced until UNTIL by AUTHOR: REASON`, with the end already written (UTC, or `shownTime` on a terminal).
    public static func text(until: String, author: String, reason: String) -> String {
        "silenced until \(until) by \(author): \(reason)"
    }
}

extension Array where Element == Silence {
    /// The silence in force at `now` that covers `domain`, the one ending last when several do.
    public func active(for domain: String, at now: Date) -> Silence? {
        filter { $0.isActive(at: now) && $0.covers(domain: domain) }.max { $0.endsAt < $1.endsAt }
    }
}

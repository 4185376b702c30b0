import Foundation
import MonitorEvaluation

/// One entry of a domain's history: something changed at a check.
///
/// `history --json` prints each as `{"at": …, "kind": …}` plus the keys of `detail` (snake_case, times as RFC 3339
/// strings), so receivers and scripts route on `kind`.
public struct TimelineEvent: Sendable, Hashable, Codable {
    /// The check time of the check that noticed the change.
    public var at: Date
    public var kind: Kind
    public var detail: FindingDetail

    public init(at: Date, kind: Kind, detail: FindingDetail = [:]) {
        self.at = at
        self.kind = kind
        self.detail = detail
    }

    /// What happened; the raw values are part of the JSON interface.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The first valid origin meaning ever seen (detail: `hash`). Not a change: there was nothing before.
        case originFirstSeen = "origin.first_seen"
        /// The origin now serves another meaning (detail: `from`, `to`).
        case originChanged = "origin.changed"
        /// Apple serves a meaning the origin changed to earlier (detail: `hash`, `changed_at`, `delay`,
        /// `resolution`: the delay is only known to within the time since the CDN was last asked).
        case cdnPropagated = "cdn.propagated"
        /// The origin changed again before Apple caught up (detail: `hash`, `changed_at`, `superseded_by`);
        /// the clock restarts for the newest meaning.
        case propagationSuperseded = "propagation.superseded"
        /// The verdict changed (detail: `from`, null on the first check, and `to`; `because`: the codes the new
        /// verdict rests on, root causes first; `cleared`: the codes of problems open before and gone now).
        case verdictChanged = "verdict.changed"
        /// Apple's copy stopped matching the origin's meaning (detail: `origin_hash`, `cdn_hash`,
        /// `expected_refresh`).
        case cdnStale = "cdn.stale"
        /// Apple's copy matches the origin again (detail: `hash`, `stale_since`).
        case cdnInSync = "cdn.in_sync"
        /// An alert fired, or rose in severity while firing (detail: `code`, `source`, `subject` when it has one,
        /// `severity`, `flapping` when it fired often enough to be held open).
        case alertFiring = "alert.firing"
        /// An alert resolved (detail: `code`, `source`, `subject` when it has one, `severity`, `flapping` when it
        /// had been held open for flapping).
        case alertResolved = "alert.resolved"
        /// Apple serves no usable copy while the origin serves a valid one (detail: `origin_hash`, `status`,
        /// `apple_failure_reason`); not `cdn.stale`: there is no copy to be old.
        case cdnMissing = "cdn.missing"
    }
}

extension Date {
    /// RFC 3339 in UTC with whole seconds (`2026-11-21T19:12:03Z`), the time format of every JSON output.
    public var rfc3339: String {
        RFC3339.string(self)
    }
}

extension DetailValue {
    /// A time as its RFC 3339 string, or `.null`.
    public static func time(_ date: Date?) -> DetailValue { date.map { .string($0.rfc3339) } ?? .null }
}

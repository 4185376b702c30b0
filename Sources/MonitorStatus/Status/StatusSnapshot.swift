import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// What `status --json` prints: whether the daemon is alive, each domain's state, the outbox. Its keys are public
/// interface (`snake_case`, absent values as `null`), so scripts can rely on them.
package struct StatusSnapshot: Sendable, Hashable, Encodable {
    package var daemon: DaemonStatus
    package var domains: [DomainStatus]
    package var outbox: OutboxStatus
    /// The monitor's own conditions (`monitor.cdn_unreachable`, `monitor.network`, `monitor.resources`, `monitor.store`) while they last.
    package var monitor: [AlertStatus] = []
}

/// The daemon's liveness from its heartbeat.
package struct DaemonStatus: Sendable, Hashable, Encodable {
    /// Heartbeat younger than `StatusReader.heartbeatBound` and, on the same host, the pid still exists.
    package var running: Bool
    @NullWhenAbsent package var pid: Int32?
    @NullWhenAbsent package var host: String?
    @NullWhenAbsent package var version: String?
    @RFC3339Time package var startedAt: Date?
    @RFC3339Time package var heartbeat: Date?
    /// Seconds since the last heartbeat.
    @NullWhenAbsent package var heartbeatAge: Double?

    enum CodingKeys: String, CodingKey {
        case running, pid, host, version, heartbeat
        case startedAt = "started_at"
        case heartbeatAge = "heartbeat_age"
    }
}

/// One domain in `status`.
package struct DomainStatus: Sendable, Hashable, Encodable {
    package var domain: String
    package var verdict: Verdict
    /// When the current verdict began.
    @RFC3339Time package var since: Date?
    @RFC3339Time package var lastCheck: Date?
    /// Seconds the last check took.
    package var lastDuration: Double
    package var findings: [FindingStatus]
    package var cdn: CDNStatus
    package var certificate: CertificateStatus
    package var alerts: [AlertStatus]
    /// The silence in force over everything about the domain (no code; the one ending last), `null` when none: its
    /// alerts run as usual but nothing is sent. A silence of one code is shown only on the alerts it mutes
    /// (`AlertStatus.silencedBy`), never here: it does not silence the domain's other alerts.
    @NullWhenAbsent package var silenced: SilenceStatus?
    /// The apps whose claims the domain is checked for (`apps:` in the daemon's configuration), passing or not;
    /// `nil`, and absent from JSON, when not read (`status` without domain names, the HTTP endpoint).
    package var apps: [ClaimingApp]? = nil

    enum CodingKeys: String, CodingKey {
        case domain, verdict, since, findings, cdn, certificate, alerts, silenced, apps
        case lastCheck = "last_check"
        case lastDuration = "last_duration"
    }
}

/// An open finding and when it first appeared. `status` lists them causes first, each followed by its
/// consequences (`FindingStatus.causesFirst`).
package struct FindingStatus: Sendable, Hashable, Encodable {
    package var code: FindingCode
    package var severity: ReportFinding.Severity
    package var source: FindingSource
    /// The URL or app ID of an `expect.*` finding, empty otherwise.
    package var subject: String
    package var message: String
    @RFC3339Time package var since: Date?
    /// The finding this one follows from (`caused_by`, as in `check --json`); `null` for a problem of its own.
    @NullWhenAbsent package var causedBy: FindingCause?

    enum CodingKeys: String, CodingKey {
        case code, severity, source, subject, message, since
        case causedBy = "caused_by"
    }
}

/// Whether Apple serves the origin's meaning.
package struct CDNStatus: Sendable, Hashable, Encodable {
    /// `null` when unknown: the CDN was never asked, or the origin has no valid document to compare.
    @NullWhenAbsent package var inSync: Bool?
    @RFC3339Time package var staleSince: Date?
    /// Since when Apple has served no usable copy (404 or an invalid body); `null` while it serves one.
    @RFC3339Time package var missingSince: Date?
    @RFC3339Time package var expectedRefresh: Date?
    /// Seconds from the last origin change to Apple serving it (resolution: the check interval).
    @NullWhenAbsent package var lastPropagationDelay: Double?
    /// When the origin change Apple has not caught up with yet was first seen.
    @RFC3339Time package var propagationPendingSince: Date?
    /// The meaning of the copy Apple serves (`sha256:…`), `null` when it serves none or was not asked: what Apple
    /// said even when there is no valid origin file to compare it with.
    @NullWhenAbsent package var copyHash: String? = nil
    /// When Apple last answered about the domain (a copy or a 404); `null` when it never did.
    @RFC3339Time package var lastAnswer: Date? = nil

    enum CodingKeys: String, CodingKey {
        case inSync = "in_sync"
        case staleSince = "stale_since"
        case missingSince = "missing_since"
        case expectedRefresh = "expected_refresh"
        case lastPropagationDelay = "last_propagation_delay"
        case propagationPendingSince = "propagation_pending_since"
        case copyHash = "copy_hash"
        case lastAnswer = "last_answer"
    }
}

/// The origin certificate's expiry from the last check that saw one.
package struct CertificateStatus: Sendable, Hashable, Encodable {
    @RFC3339Time package var notAfter: Date?

    enum CodingKeys: String, CodingKey {
        case notAfter = "not_after"
    }
}

/// One stored alert; `state` and `since` come from the alerting code's JSON (keys `state`, `since`).
package struct AlertStatus: Sendable, Hashable, Encodable {
    package var code: FindingCode
    package var source: FindingSource
    package var subject: String
    @NullWhenAbsent package var state: String?
    @RFC3339Time package var since: Date?
    /// Fired often enough within the flap window to be held open until it has passed for the stable period.
    package var flapping: Bool = false
    /// While `resolving`: the first of the passing checks since it last failed.
    @RFC3339Time package var passingSince: Date? = nil
    /// While a flapping alert is `resolving`: when it resolves if every check passes until then.
    @RFC3339Time package var heldUntil: Date? = nil
    /// For the words of a flapping alert (not in JSON): what the stored state says of its hold.
    package var flapHold: FlapHold? = nil
    /// Every silence in force that mutes this alert (`silenced_by`), the one ending last first; empty when a
    /// receiver would be told of it.
    package var silencedBy: [SilenceStatus] = []

    /// How a flapping alert is held: its firings within the window, the window and how long it must pass, in
    /// seconds (`nil` in states written before they were kept).
    package struct FlapHold: Sendable, Hashable {
        package var firings: Int
        package var window: Double?
        package var hold: Double?
    }

    enum CodingKeys: String, CodingKey {
        case code, source, subject, state, since, flapping
        case passingSince = "passing_since"
        case heldUntil = "held_until"
        case silencedBy = "silenced_by"
    }
}

/// The webhook outbox as `status` shows it: deliveries waiting, retrying, given up, and the next attempt.
package struct OutboxStatus: Sendable, Hashable, Encodable {
    package var pending: Int
    package var retrying: Int
    package var dead: Int
    /// When the next pending or retrying delivery is due; `null` when nothing waits.
    @RFC3339Time package var nextAttempt: Date?
    /// The webhooks whose deliveries fail now, by name (`StoreReader.failingWebhooks`).
    package var failingWebhooks: [FailingWebhook]

    package init(counts: OutboxCounts, nextAttempt: Date?, failingWebhooks: [FailingWebhook] = []) {
        pending = counts.pending
        retrying = counts.retrying
        dead = counts.dead
        self.nextAttempt = nextAttempt
        self.failingWebhooks = failingWebhooks
    }

    enum CodingKeys: String, CodingKey {
        case pending, retrying, dead
        case nextAttempt = "next_attempt"
        case failingWebhooks = "failing_webhooks"
    }
}

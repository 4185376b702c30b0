import AASA
import Foundation
import MonitorCore
import MonitorStore

/// What `status --json` prints: whether the daemon is alive, each domain's state, the outbox. Its keys are public
/// interface (`snake_case`, absent values as `null`), so scripts can rely on them.
public struct StatusSnapshot: Sendable, Hashable, Encodable {
    public var daemon: DaemonStatus
    public var domains: [DomainStatus]
    public var outbox: OutboxStatus
    /// The monitor's own conditions (`monitor.cdn_unreachable`, `monitor.network`, `monitor.resources`, `monitor.store`) while they last.
    public var monitor: [AlertStatus] = []
}

/// The daemon's liveness from its heartbeat.
public struct DaemonStatus: Sendable, Hashable, Encodable {
    /// Heartbeat younger than `StatusReader.heartbeatBound` and, on the same host, the pid still exists.
    public var running: Bool
    @NullWhenAbsent public var pid: Int32?
    @NullWhenAbsent public var host: String?
    @NullWhenAbsent public var version: String?
    @RFC3339Time public var startedAt: Date?
    @RFC3339Time public var heartbeat: Date?
    /// Seconds since the last heartbeat.
    @NullWhenAbsent public var heartbeatAge: Double?

    enum CodingKeys: String, CodingKey {
        case running, pid, host, version, heartbeat
        case startedAt = "started_at"
        case heartbeatAge = "heartbeat_age"
    }
}

/// One domain in `status`.
public struct DomainStatus: Sendable, Hashable, Encodable {
    public var domain: String
    public var verdict: Verdict
    /// When the current verdict began.
    @RFC3339Time public var since: Date?
    @RFC3339Time public var lastCheck: Date?
    /// Seconds the last check took.
    public var lastDuration: Double
    public var findings: [FindingStatus]
    public var cdn: CDNStatus
    public var certificate: CertificateStatus
    public var alerts: [AlertStatus]
    /// The silence in force over everything about the domain (no code; the one ending last), `null` when none: its
    /// alerts run as usual but nothing is sent. A silence of one code is shown only on the alerts it mutes
    /// (`AlertStatus.silencedBy`), never here: it does not silence the domain's other alerts.
    @NullWhenAbsent public var silenced: SilenceStatus?
    /// The apps whose claims the domain is checked for (`apps:` in the daemon's configuration), passing or not;
    /// `nil`, and absent from JSON, when not read (`status` without domain names, the HTTP endpoint).
    public var apps: [ClaimingApp]? = nil

    enum CodingKeys: String, CodingKey {
        case domain, verdict, since, findings, cdn, certificate, alerts, silenced, apps
        case lastCheck = "last_check"
        case lastDuration = "last_duration"
    }
}

/// An open finding and when it first appeared. `status` lists them causes first, each followed by its
/// consequences (`FindingStatus.causesFirst`).
public struct FindingStatus: Sendable, Hashable, Encodable {
    public var code: FindingCode
    public var severity: ReportFinding.Severity
    public var source: FindingSource
    /// The URL or app ID of an `expect.*` finding, empty otherwise.
    public var subject: String
    public var message: String
    @RFC3339Time public var since: Date?
    /// The finding this one follows from (`caused_by`, as in `check --json`); `null` for a problem of its own.
    @NullWhenAbsent public var causedBy: FindingCause?

    enum CodingKeys: String, CodingKey {
        case code, severity, source, subject, message, since
        case causedBy = "caused_by"
    }
}

/// Whether Apple serves the origin's meaning.
public struct CDNStatus: Sendable, Hashable, Encodable {
    /// `null` when unknown: the CDN was never asked, or the origin has no valid document to compare.
    @NullWhenAbsent public var inSync: Bool?
    @RFC3339Time public var staleSince: Date?
    /// Since when Apple has served no usable copy (404 or an invalid body); `null` while it serves one.
    @RFC3339Time public var missingSince: Date?
    @RFC3339Time public var expectedRefresh: Date?
    /// Seconds from the last origin change to Apple serving it (resolution: the check interval).
    @NullWhenAbsent public var lastPropagationDelay: Double?
    /// When the origin change Apple has not caught up with yet was first seen.
    @RFC3339Time public var propagationPendingSince: Date?
    /// The meaning of the copy Apple serves (`sha256:…`), `null` when it serves none or was not asked: what Apple
    /// said even when there is no valid origin file to compare it with.
    @NullWhenAbsent public var copyHash: String? = nil
    /// When Apple last answered about the domain (a copy or a 404); `null` when it never did.
    @RFC3339Time public var lastAnswer: Date? = nil

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
public struct CertificateStatus: Sendable, Hashable, Encodable {
    @RFC3339Time public var notAfter: Date?

    enum CodingKeys: String, CodingKey {
        case notAfter = "not_after"
    }
}

/// One stored alert; `state` and `since` come from the alerting code's JSON (keys `state`, `since`).
public struct AlertStatus: Sendable, Hashable, Encodable {
    public var code: FindingCode
    public var source: FindingSource
    public var subject: String
    @NullWhenAbsent public var state: String?
    @RFC3339Time public var since: Date?
    /// Fired often enough within the flap window to be held open until it has passed for the stable period.
    public var flapping: Bool = false
    /// While `resolving`: the first of the passing checks since it last failed.
    @RFC3339Time public var passingSince: Date? = nil
    /// While a flapping alert is `resolving`: when it resolves if every check passes until then.
    @RFC3339Time public var heldUntil: Date? = nil
    /// For the words of a flapping alert (not in JSON): what the stored state says of its hold.
    public var flapHold: FlapHold? = nil
    /// Every silence in force that mutes this alert (`silenced_by`), the one ending last first; empty when a
    /// receiver would be told of it.
    public var silencedBy: [SilenceStatus] = []

    /// How a flapping alert is held: its firings within the window, the window and how long it must pass, in
    /// seconds (`nil` in states written before they were kept).
    public struct FlapHold: Sendable, Hashable {
        public var firings: Int
        public var window: Double?
        public var hold: Double?
    }

    enum CodingKeys: String, CodingKey {
        case code, source, subject, state, since, flapping
        case passingSince = "passing_since"
        case heldUntil = "held_until"
        case silencedBy = "silenced_by"
    }
}

/// The webhook outbox as `status` shows it: deliveries waiting, retrying, given up, and the next attempt.
public struct OutboxStatus: Sendable, Hashable, Encodable {
    public var pending: Int
    public var retrying: Int
    public var dead: Int
    /// When the next pending or retrying delivery is due; `null` when nothing waits.
    @RFC3339Time public var nextAttempt: Date?
    /// The webhooks whose deliveries fail now, by name (`StoreReader.failingWebhooks`).
    public var failingWebhooks: [FailingWebhook]

    public init(counts: OutboxCounts, nextAttempt: Date?, failingWebhooks: [FailingWebhook] = []) {
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

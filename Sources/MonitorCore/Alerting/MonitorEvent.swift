import AASA
import Foundation

/// Something a receiver is told about: an alert firing or resolving, or an informational event.
///
/// Written to the outbox in the same transaction as the state change that caused it, then rendered per webhook
/// (`WebhookPayload`). `id` is stable: every delivery and retry of this event carries it.
public struct MonitorEvent: Sendable, Hashable, Codable {
    /// The event kinds; raw values are the `type` field of every webhook format, never renamed.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case alertFiring = "alert.firing"
        case alertResolved = "alert.resolved"
        case originChanged = "origin.changed"
        case cdnPropagated = "cdn.propagated"
        /// One message for people about a domain's check (chat formats only): see `IncidentDigest`.
        case incident
        /// A condition of the monitor itself started or ended (`MonitorConditions`); `domain` is empty.
        case monitorFiring = "monitor.firing"
        case monitorResolved = "monitor.resolved"
        case test
    }

    /// `evt_` + a ULID (see `MonitorEvent.makeID`), or whatever the injected generator made.
    public var id: String
    public var type: Kind
    public var occurredAt: Date
    public var domain: String
    /// The finding code, or for informational events the event type (`origin.changed`, `cdn.propagated`, `test`).
    public var code: String
    public var severity: ReportFinding.Severity
    /// Where the finding was seen; `nil` for the `test` event.
    public var source: FindingSource?
    /// The URL or app ID of an `expect.*` alert, empty otherwise.
    public var subject: String
    public var message: String
    public var detail: FindingDetail
    /// The domain's verdict at the check that caused the event.
    public var verdict: Verdict?
    /// For `origin.changed`: the semantic diff of the old and new meaning.
    public var diff: DocumentDiff?
    /// `true` for a reminder of a still-firing alert.
    public var reminder: Bool
    /// `true` when the alert fires often enough to be held firing (see `AlertPolicy`).
    public var flapping: Bool
    /// The domain's incident this event belongs to: receivers group alerts by it.
    public var incident: String?
    /// The finding this alert's finding follows from; `nil` for a root cause (caused findings do not alert).
    public var causedBy: FindingCause?
    /// The findings this alert causes in the same check, `code on source: message`.
    public var consequences: [String] = []
    /// The digest of an `incident` event.
    public var digest: IncidentDigest?

    public init(
        id: String, type: Kind, occurredAt: Date, domain: String, code: String, severity: ReportFinding.Severity,
        source: FindingSource?, subject: String = "", message: String, detail: FindingDetail = [:],
        verdict: Verdict? = nil, diff: DocumentDiff? = nil, reminder: Bool = false, flapping: Bool = false
    ) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.domain = domain
        self.code = code
        self.severity = severity
        self.source = source
        self.subject = subject
        self.message = message
        self.detail = detail
        self.verdict = verdict
        self.diff = diff
        self.reminder = reminder
        self.flapping = flapping
    }

    enum CodingKeys: String, CodingKey {
        case id, type
        case occurredAt = "occurred_at"
        case domain, code, severity, source, subject, message, detail, verdict, diff, reminder, flapping
        case incident, consequences, digest
        case causedBy = "caused_by"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(Kind.self, forKey: .type)
        occurredAt = try container.decode(Date.self, forKey: .occurredAt)
        domain = try container.decode(String.self, forKey: .domain)
        code = try container.decode(String.self, forKey: .code)
        severity = try container.decode(ReportFinding.Severity.self, forKey: .severity)
        source = try container.decodeIfPresent(FindingSource.self, forKey: .source)
        subject = try container.decode(String.self, forKey: .subject)
        message = try container.decode(String.self, forKey: .message)
        detail = try container.decode(FindingDetail.self, forKey: .detail)
        verdict = try container.decodeIfPresent(Verdict.self, forKey: .verdict)
        diff = try container.decodeIfPresent(DocumentDiff.self, forKey: .diff)
        reminder = try container.decode(Bool.self, forKey: .reminder)
        flapping = try container.decode(Bool.self, forKey: .flapping)
        // Events written by an earlier version (still in the outbox) have none of these.
        incident = try container.decodeIfPresent(String.self, forKey: .incident)
        causedBy = try container.decodeIfPresent(FindingCause.self, forKey: .causedBy)
        consequences = try container.decodeIfPresent([String].self, forKey: .consequences) ?? []
        digest = try container.decodeIfPresent(IncidentDigest.self, forKey: .digest)
    }

    /// The alert identity this event is about (informational events use their type as the code).
    public var identity: FindingIdentity? {
        source.map { FindingIdentity(domain: domain, code: FindingCode(storedID: code), source: $0, subject: subject) }
    }
}

extension MonitorEvent {
    /// `origin.changed`: the origin's file now means something else; the diff says what.
    public static func originChanged(
        id: String, domain: String, diff: DocumentDiff, verdict: Verdict? = nil, at time: Date
    ) -> MonitorEvent {
        let behavioural = diff.changes.filter(\.affectsBehavior).count
        let message =
            "The origin's association file changed meaning: \(diff.changes.count) change(s), "
            + "\(behavioural) of which can change what devices do."
        return MonitorEvent(
            id: id, type: .originChanged, occurredAt: time, domain: domain, code: Kind.originChanged.rawValue,
            severity: .info, source: .wellKnown, message: message,
            detail: [
                "hash_before": .string(diff.hashA), "hash_after": .string(diff.hashB),
                "can_change_behavior": .bool(diff.canChangeBehavior),
            ],
            verdict: verdict, diff: diff)
    }

    /// `cdn.propagated`: Apple's CDN now serves the origin's meaning, `delaySeconds` after the origin changed.
    public static func cdnPropagated(
        id: String, domain: String, delaySeconds: Double, hash: String, verdict: Verdict? = nil, at time: Date
    ) -> MonitorEvent {
        MonitorEvent(
            id: id, type: .cdnPropagated, occurredAt: time, domain: domain, code: Kind.cdnPropagated.rawValue,
            severity: .info, source: .cdn,
            message: "Apple's CDN caught up with the origin after \(DurationText.describe(delaySeconds)).",
            detail: ["delay_seconds": .double(delaySeconds), "hash": .string(hash)], verdict: verdict)
    }

    /// The `test` event of `webhook test`: shows a receiver what an alert looks like, marked as a test.
    public static func test(id: String, domain: String = "example.com", at time: Date) -> MonitorEvent {
        MonitorEvent(
            id: id, type: .test, occurredAt: time, domain: domain, code: Kind.test.rawValue, severity: .info,
            source: nil, message: "Test event from aasa-monitor: this webhook is configured correctly.",
            detail: ["test": true])
    }
}

import AASA
import Foundation
import MonitorEvaluation

/// Something a receiver is told about: an alert firing or resolving, or an informational event.
///
/// Written to the outbox in the same transaction as the state change that caused it, then rendered per webhook
/// (`WebhookPayload`). `id` is stable: every delivery and retry of this event carries it.
///
/// An envelope around a `Payload` rather than a plain enum of events: what every event has (`id`, `occurredAt`,
/// `domain`) is what the outbox, delivery ids, silences and logs read, and they should not switch over eight kinds
/// to reach it. What differs by kind lives in one case per kind, carrying exactly that kind's fields, so a renderer
/// switches on the kind and cannot read a diff off an alert or a digest off a test (as the struct of optional fields
/// that came before allowed). The JSON stays the flat object of every earlier version (`MonitorEvent+JSON.swift`).
public struct MonitorEvent: Sendable, Hashable {
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

    /// What an event of each kind says.
    public enum Payload: Sendable, Hashable {
        /// An alert fired, rose in severity, or is still firing (`reminder`); `consequences` are the findings it
        /// causes in the same check, one line each (`code on source: message`).
        case alertFiring(Alert, reminder: Bool, consequences: [String])
        case alertResolved(Alert)
        /// The origin's file now means something else; the semantic diff says what.
        case originChanged(diff: DocumentDiff, verdict: Verdict?)
        /// Apple's CDN now serves the origin's meaning (`hash`), `delaySeconds` after the origin changed.
        case cdnPropagated(delaySeconds: Double, hash: String, verdict: Verdict?)
        /// A chat receiver's one message about a domain's check.
        case incident(IncidentDigest, verdict: Verdict?)
        /// A condition of the monitor itself started (at `condition.since`).
        case monitorFiring(MonitorConditions.Condition)
        /// The condition `code`, active since `since`, is over.
        case monitorResolved(code: FindingCode, since: Date)
        /// `webhook test`: shows a receiver what an alert looks like, marked as a test.
        case test

        public var kind: Kind {
            switch self {
            case .alertFiring: .alertFiring
            case .alertResolved: .alertResolved
            case .originChanged: .originChanged
            case .cdnPropagated: .cdnPropagated
            case .incident: .incident
            case .monitorFiring: .monitorFiring
            case .monitorResolved: .monitorResolved
            case .test: .test
            }
        }
    }

    /// `evt_` + a ULID (see `MonitorEvent.makeID`), or whatever the injected generator made.
    public var id: String
    public var occurredAt: Date
    /// The domain; empty for the monitor's own events.
    public var domain: String
    public var payload: Payload

    public init(id: String, occurredAt: Date, domain: String, payload: Payload) {
        self.id = id
        self.occurredAt = occurredAt
        self.domain = domain
        self.payload = payload
    }

    /// The kind, the `type` of every webhook format.
    public var type: Kind { payload.kind }

    /// The alert of an `alert.firing` or `alert.resolved`; `nil` for the other kinds.
    public var alert: Alert? {
        switch payload {
        case .alertFiring(let alert, _, _), .alertResolved(let alert): alert
        default: nil
        }
    }

    /// The alert identity an alert event is about; `nil` for the other kinds.
    public var identity: FindingIdentity? {
        alert.map { FindingIdentity(domain: domain, code: $0.code, source: $0.source, subject: $0.subject) }
    }
}

extension MonitorEvent {
    /// What an `alert.firing` or `alert.resolved` says: which alert of the domain, and the finding's words.
    public struct Alert: Sendable, Hashable {
        public var code: FindingCode
        /// Where the finding was seen.
        public var source: FindingSource
        /// The URL or app ID of an `expect.*` alert, empty otherwise.
        public var subject: String
        public var severity: ReportFinding.Severity
        public var message: String
        public var detail: FindingDetail
        /// The domain's verdict at the check that caused the event.
        public var verdict: Verdict?
        /// `true` when the alert fires often enough to be held firing (see `AlertPolicy`).
        public var flapping: Bool
        /// The domain's incident this alert belongs to: receivers group alerts by it.
        public var incident: String?

        public init(
            code: FindingCode, source: FindingSource, subject: String = "", severity: ReportFinding.Severity,
            message: String, detail: FindingDetail = [:], verdict: Verdict? = nil, flapping: Bool = false,
            incident: String? = nil
        ) {
            self.code = code
            self.source = source
            self.subject = subject
            self.severity = severity
            self.message = message
            self.detail = detail
            self.verdict = verdict
            self.flapping = flapping
            self.incident = incident
        }
    }
}

extension MonitorEvent {
    /// `origin.changed`: the origin's file now means something else; the diff says what.
    public static func originChanged(
        id: String, domain: String, diff: DocumentDiff, verdict: Verdict? = nil, at time: Date
    ) -> MonitorEvent {
        MonitorEvent(id: id, occurredAt: time, domain: domain, payload: .originChanged(diff: diff, verdict: verdict))
    }

    /// `cdn.propagated`: Apple's CDN now serves the origin's meaning, `delaySeconds` after the origin changed.
    public static func cdnPropagated(
        id: String, domain: String, delaySeconds: Double, hash: String, verdict: Verdict? = nil, at time: Date
    ) -> MonitorEvent {
        MonitorEvent(
            id: id, occurredAt: time, domain: domain,
            payload: .cdnPropagated(delaySeconds: delaySeconds, hash: hash, verdict: verdict))
    }

    /// The `test` event of `webhook test`: shows a receiver what an alert looks like, marked as a test.
    public static func test(id: String, domain: String = "example.com", at time: Date) -> MonitorEvent {
        MonitorEvent(id: id, occurredAt: time, domain: domain, payload: .test)
    }
}

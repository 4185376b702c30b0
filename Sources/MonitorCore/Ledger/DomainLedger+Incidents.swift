import AASA
import Foundation
import MonitorEvaluation

extension DomainLedger {
    /// Gives the check's alert events their incident and consequences, opens or closes the domain's incident, and
    /// orders causes first.
    ///
    /// `propagatedAfter`: the delay of the check's `cdn.propagated`, if any, which a CDN alert's resolution names.
    static func annotate(
        _ events: [MonitorEvent], state: inout DomainState, alerts: [FindingIdentity: AlertState],
        report: DomainReport, propagatedAfter: Double? = nil
    ) -> [MonitorEvent] {
        let now = report.checkedAt
        if state.incident == nil, let opening = events.first(where: { $0.type == .alertFiring }) {
            state.incident = OpenIncident(id: opening.id, since: now)
        }
        let incident = state.incident?.id
        var annotated = events.map { event -> (event: MonitorEvent, causes: Bool) in
            var event = event
            switch event.payload {
            case .alertFiring(var alert, let reminder, _):
                alert.incident = incident
                let consequences = report.findings.filter {
                    $0.causedBy?.code == alert.code && $0.causedBy?.source == alert.source
                }.map { "\($0.code) on \($0.source.rawValue): \($0.message)" }
                event.payload = .alertFiring(alert, reminder: reminder, consequences: consequences)
                return (event, !consequences.isEmpty)
            case .alertResolved(var alert):
                alert.incident = incident
                // A resolution says what holds again, as chat's "Recovered" does; what failed stays in `detail`.
                alert.detail["problem"] = .string(alert.message)
                alert.message = RecoveryText.text(for: alert.code, propagatedAfter: propagatedAfter)
                event.payload = .alertResolved(alert)
                return (event, false)
            default:
                return (event, false)
            }
        }
        if !alerts.values.contains(where: \.isFiring) { state.incident = nil }
        // Root causes first: an alert that explains others is what a person reads and fixes first.
        annotated = annotated.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.causes, rhs.element.causes)
            return a == b ? lhs.offset < rhs.offset : a
        }.map(\.element)
        return annotated.map(\.event)
    }

    /// Every event to every webhook that wants it: `standard` receivers one delivery per event, chat receivers at
    /// most one digest per check.
    static func deliveries(
        _ events: [MonitorEvent], alerts: [FindingIdentity: AlertState], report: DomainReport,
        webhooks: [WebhookConfiguration], makeID: () -> String
    ) -> [LedgerDelivery] {
        var deliveries: [LedgerDelivery] = []
        var digestID: String?
        for webhook in webhooks where webhook.domains?.contains(report.domain) ?? true {
            if webhook.format == .standard {
                for event in events where wants(webhook, event) {
                    deliveries.append(delivery(event, to: webhook))
                }
                continue
            }
            let digest = self.digest(events, alerts: alerts, report: report, for: webhook)
            guard let digest else { continue }
            let id = digestID ?? makeID()
            digestID = id
            deliveries.append(delivery(incidentEvent(digest, id: id, report: report), to: webhook))
        }
        return deliveries
    }

    private static func delivery(_ event: MonitorEvent, to webhook: WebhookConfiguration) -> LedgerDelivery {
        LedgerDelivery(
            deliveryID: DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name),
            webhook: webhook.name, event: event)
    }

    /// The webhook subscribed to the event's kind, and an alert is at least its `min_severity`. Also decides the
    /// monitor's own events (`monitor.*`), which the daemon records outside a check.
    public static func wants(_ webhook: WebhookConfiguration, _ event: MonitorEvent) -> Bool {
        guard let kind = WebhookEvent(rawValue: event.type.rawValue), webhook.events.contains(kind) else {
            return false
        }
        return event.alert.map { $0.severity >= webhook.minSeverity } ?? true
    }

    /// What `webhook` is told about this check, or `nil` when nothing it wants happened.
    static func digest(
        _ events: [MonitorEvent], alerts: [FindingIdentity: AlertState], report: DomainReport,
        for webhook: WebhookConfiguration
    ) -> IncidentDigest? {
        let wanted = events.filter { wants(webhook, $0) }
        var digest = IncidentDigest(incident: wanted.lazy.compactMap(\.alert?.incident).first ?? "")
        var told: Set<FindingIdentity> = []
        var reminders: Set<FindingIdentity> = []
        for event in wanted {
            let identity = event.identity
            switch event.payload {
            case .alertFiring(_, reminder: true, _):
                if let identity { reminders.insert(identity) }
            case .alertFiring(let alert, reminder: false, let consequences):
                var started = item(alert, consequences: consequences)
                if alert.flapping, let identity, case .firing(let firing)? = alerts[identity] {
                    started.flapping = IncidentDigest.Flapping(firing)
                }
                digest.started.append(started)
                if let identity { told.insert(identity) }
            case .alertResolved(let alert):
                // Its message already says what holds again (`annotate`).
                var recovered = item(alert, consequences: [])
                if alert.flapping { recovered.flapping = IncidentDigest.Flapping() }
                digest.recovered.append(recovered)
                if let identity { told.insert(identity) }
            case .originChanged(let diff, _):
                digest.notes.append(originChangeNote(diff))
            case .cdnPropagated(let delay, _, _):
                digest.notes.append(EventFields.propagationMessage(delaySeconds: delay))
            case .incident, .monitorFiring, .monitorResolved, .test:
                continue
            }
        }
        for (identity, state) in alerts.sorted(by: { $0.key < $1.key }) where !told.contains(identity) {
            // Resolving alerts still fire for the receiver: they have not passed long enough to be resolved.
            let firing: FiringAlert
            var passingSince: Date?
            switch state {
            case .firing(let alert): firing = alert
            case .resolving(let alert, _, let since): (firing, passingSince) = (alert, since)
            case .pending, .resolved: continue
            }
            guard firing.severity >= webhook.minSeverity, webhook.events.contains(.alertFiring) else { continue }
            let alert = firing
            digest.stillFailing.append(
                IncidentDigest.Item(
                    code: identity.code, source: identity.source, subject: identity.subject,
                    severity: alert.severity, message: alert.message,
                    appleReason: AlertSummary.appleReason(in: alert.detail), reminder: reminders.contains(identity),
                    flapping: IncidentDigest.Flapping(alert, passingSince: passingSince)))
        }
        return digest.isEmpty ? nil : digest
    }

    private static func item(_ alert: MonitorEvent.Alert, consequences: [String]) -> IncidentDigest.Item {
        IncidentDigest.Item(
            code: alert.code, source: alert.source, subject: alert.subject, severity: alert.severity,
            message: alert.message, appleReason: AlertSummary.appleReason(in: alert.detail),
            consequences: consequences)
    }

    /// `Origin changed: rule added: /promo/* for 9JA89QQLNQ.com.example.app; …` with the first three changes.
    static func originChangeNote(_ diff: DocumentDiff) -> String {
        let changes = diff.changes
        guard !changes.isEmpty else {
            return "Origin changed: \(EventFields.originChangeMessage(diff))"
        }
        let first = changes.prefix(3).map(\.summary).joined(separator: "; ")
        return "Origin changed: " + first + (changes.count > 3 ? "; and \(changes.count - 3) more" : "")
    }

    /// The chat event carrying a digest (its code, severity and summary line follow from the digest).
    static func incidentEvent(_ digest: IncidentDigest, id: String, report: DomainReport) -> MonitorEvent {
        MonitorEvent(
            id: id, occurredAt: report.checkedAt, domain: report.domain,
            payload: .incident(digest, verdict: report.verdict))
    }
}

/// What is right now, for a recovered alert: a resolved message tells the present, not the old problem.
enum RecoveryText {
    /// `propagatedAfter`: the delay of a `cdn.propagated` of the same check, if any.
    static func text(for code: FindingCode, propagatedAfter: Double?) -> String {
        switch code.family {
        case .cdn:
            if code == .cdnUnreachable { return "Apple's CDN answers again." }
            if let delay = propagatedAfter {
                return "Apple's copy matches the origin again, caught up after \(DurationText.describe(delay))."
            }
            return "Apple's copy matches the origin again."
        case .expectation: return "The expectation holds again on this copy."
        case .document: return "The file no longer has this problem."
        // The monitor's own conditions and the app reader's codes are no domain alerts; a code of their families
        // could only be another version's.
        case .origin, .monitor, .app: return "The origin serves the file as Apple needs it again."
        }
    }
}

import AASA
import Foundation

extension DomainLedger {
    /// Gives the check's alert events their incident and consequences, opens or closes the domain's incident, and
    /// orders causes first.
    static func annotate(
        _ events: [MonitorEvent], state: inout DomainState, alerts: [FindingIdentity: AlertState],
        report: DomainReport
    ) -> [MonitorEvent] {
        let now = report.checkedAt
        if state.incident == nil, let opening = events.first(where: { $0.type == .alertFiring }) {
            state.incident = OpenIncident(id: opening.id, since: now)
        }
        let incident = state.incident?.id
        var annotated = events.map { event -> MonitorEvent in
            guard event.type == .alertFiring || event.type == .alertResolved else { return event }
            var event = event
            event.incident = incident
            if event.type == .alertFiring, let source = event.source {
                event.consequences = report.findings.filter {
                    $0.causedBy?.code.id == event.code && $0.causedBy?.source == source
                }.map { "\($0.code) on \($0.source.rawValue): \($0.message)" }
            }
            return event
        }
        if !alerts.values.contains(where: \.isFiring) { state.incident = nil }
        // Root causes first: an alert that explains others is what a person reads and fixes first.
        annotated = annotated.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.consequences.isEmpty, rhs.element.consequences.isEmpty)
            return a == b ? lhs.offset < rhs.offset : !a
        }.map(\.element)
        return annotated
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
        switch event.type {
        case .alertFiring, .alertResolved: return event.severity >= webhook.minSeverity
        default: return true
        }
    }

    /// What `webhook` is told about this check, or `nil` when nothing it wants happened.
    static func digest(
        _ events: [MonitorEvent], alerts: [FindingIdentity: AlertState], report: DomainReport,
        for webhook: WebhookConfiguration
    ) -> IncidentDigest? {
        let wanted = events.filter { wants(webhook, $0) }
        var digest = IncidentDigest(incident: wanted.lazy.compactMap(\.incident).first ?? "")
        let propagated = events.first { $0.type == .cdnPropagated }
        var told: Set<FindingIdentity> = []
        for event in wanted {
            switch event.type {
            case .alertFiring where !event.reminder:
                var started = item(event)
                if event.flapping, let identity = event.identity, case .firing(let alert)? = alerts[identity] {
                    started.flapping = IncidentDigest.Flapping(alert)
                }
                digest.started.append(started)
                if let identity = event.identity { told.insert(identity) }
            case .alertResolved:
                var recovered = item(event)
                recovered.message = RecoveryText.text(for: FindingCode(storedID: event.code), propagated: propagated)
                if event.flapping { recovered.flapping = IncidentDigest.Flapping() }
                digest.recovered.append(recovered)
                if let identity = event.identity { told.insert(identity) }
            case .originChanged:
                digest.notes.append(originChangeNote(event))
            case .cdnPropagated:
                digest.notes.append(event.message)
            default:
                continue
            }
        }
        let reminders = Set(wanted.filter { $0.type == .alertFiring && $0.reminder }.compactMap(\.identity))
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

    private static func item(_ event: MonitorEvent) -> IncidentDigest.Item {
        IncidentDigest.Item(
            code: FindingCode(storedID: event.code), source: event.source ?? .wellKnown, subject: event.subject,
            severity: event.severity,
            message: event.message, appleReason: AlertSummary.appleReason(in: event.detail),
            consequences: event.consequences, reminder: event.reminder)
    }

    /// `Origin changed: rule added: /promo/* for 9JA89QQLNQ.com.example.app; …` with the first three changes.
    static func originChangeNote(_ event: MonitorEvent) -> String {
        let changes = event.diff?.changes ?? []
        guard !changes.isEmpty else { return "Origin changed: \(event.message)" }
        let first = changes.prefix(3).map(\.summary).joined(separator: "; ")
        return "Origin changed: " + first + (changes.count > 3 ? "; and \(changes.count - 3) more" : "")
    }

    /// The chat event carrying a digest: its code and severity are the most severe item's, for colour and title.
    static func incidentEvent(_ digest: IncidentDigest, id: String, report: DomainReport) -> MonitorEvent {
        let failing = digest.started + digest.stillFailing
        let worst = failing.max { $0.severity < $1.severity }
        let lead = digest.started.first ?? digest.recovered.first ?? digest.stillFailing.first
        var event = MonitorEvent(
            id: id, type: .incident, occurredAt: report.checkedAt, domain: report.domain,
            code: lead?.code.id ?? "incident", severity: worst?.severity ?? .info, source: lead?.source,
            subject: lead?.subject ?? "", message: summary(digest), verdict: report.verdict)
        event.incident = digest.incident.isEmpty ? nil : digest.incident
        event.digest = digest
        return event
    }

    /// One line: `origin.bot_blocked started failing (2 more follow from it); 1 recovered`.
    static func summary(_ digest: IncidentDigest) -> String {
        var parts: [String] = []
        if let first = digest.started.first {
            var text = "\(first.code) started failing" + (first.flapping == nil ? "" : " again (flapping: held open)")
            if !first.consequences.isEmpty { text += " (\(first.consequences.count) more follow from it)" }
            if digest.started.count > 1 { text += ", with \(digest.started.count - 1) other alert(s)" }
            parts.append(text)
        }
        if !digest.stillFailing.isEmpty { parts.append("\(digest.stillFailing.count) still failing") }
        if !digest.recovered.isEmpty {
            parts.append(
                digest.started.isEmpty && digest.stillFailing.isEmpty
                    ? "all clear: " + digest.recovered.map(\.message).joined(separator: "; ")
                    : "\(digest.recovered.count) recovered")
        }
        if parts.isEmpty, let note = digest.notes.first { parts.append(note) }
        return parts.joined(separator: "; ")
    }
}

/// What is right now, for a recovered alert: a resolved message tells the present, not the old problem.
enum RecoveryText {
    static func text(for code: FindingCode, propagated: MonitorEvent?) -> String {
        switch code.family {
        case .cdn:
            if code == .cdnUnreachable { return "Apple's CDN answers again." }
            if let propagated, case .double(let delay)? = propagated.detail["delay_seconds"] {
                return "Apple's copy matches the origin again, caught up after \(DurationText.describe(delay))."
            }
            return "Apple's copy matches the origin again."
        case .expectation: return "The expectation holds again on this copy."
        case .document: return "The file no longer has this problem."
        // The monitor's own conditions are no domain alerts; a code of its family could only be another version's.
        case .origin, .monitor: return "The origin serves the file as Apple needs it again."
        }
    }
}

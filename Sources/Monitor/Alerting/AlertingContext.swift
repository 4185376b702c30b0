import AASA
import Foundation

/// Turns one check into alert state changes and outbox deliveries, inside the store's transaction for that check.
///
/// The state machine and the event builders are pure (MonitorCore); this glue decodes the stored states, adds the
/// informational events of the propagation timeline (`origin.changed` with the semantic diff, `cdn.propagated`
/// with the measured delay) and fans every event out to the webhooks that want it — so a state change and the
/// deliveries it causes are committed together or not at all.
struct AlertingContext: Sendable {
    var policy: AlertPolicy
    var webhooks: [WebhookConfiguration]

    func updater(for report: DomainReport) -> AlertUpdater {
        let policy = policy
        let webhooks = webhooks
        return { input in
            let now = report.checkedAt
            var generator = SystemRandomNumberGenerator()
            let makeID = { EventID.make(at: now, using: &generator) }
            var states: [FindingIdentity: AlertState] = [:]
            for (identity, json) in input.alertStates {
                // A state this version cannot read starts over rather than blocking every later check.
                if let state = try? MonitorJSON.decoder().decode(AlertState.self, from: json) {
                    states[identity] = state
                }
            }
            let transition = AlertStateMachine.advance(
                states: states, check: AlertCheck(report: report), policy: policy, now: now, makeID: makeID)
            var events = transition.events
            events += try Self.timelineEvents(input, report: report, makeID: makeID)
            var newStates: [FindingIdentity: Data] = [:]
            for (identity, state) in transition.states where identity.domain == report.domain {
                newStates[identity] = try MonitorJSON.encoder().encode(state)
            }
            var deliveries: [OutboxInsert] = []
            for event in events {
                guard let kind = WebhookEvent(rawValue: event.type.rawValue) else { continue }
                let json = try MonitorJSON.encoder().encode(event)
                for webhook in webhooks where webhook.wants(kind, domain: event.domain) {
                    deliveries.append(
                        OutboxInsert(
                            deliveryID: DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name),
                            eventID: event.id, webhook: webhook.name, eventJSON: json, createdAt: now,
                            nextAttemptAt: now))
                }
            }
            return (newAlertStates: newStates, outboxEvents: deliveries)
        }
    }

    /// `origin.changed` and `cdn.propagated` events for the timeline entries this check produced.
    private static func timelineEvents(
        _ input: AlertUpdateInput,
        report: DomainReport,
        makeID: () -> String
    ) throws -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for entry in input.timeline {
            switch entry.kind {
            case .originChanged:
                guard let from = entry.detail["from"]?.stringValue, let to = entry.detail["to"]?.stringValue,
                    let before = try input.document(from).flatMap(Self.document),
                    let after = try (report.documents[to] ?? input.document(to)).flatMap(Self.document)
                else { continue }
                events.append(
                    .originChanged(
                        id: makeID(), domain: report.domain, diff: AASADiff.compare(before, after),
                        verdict: report.verdict, at: entry.at))
            case .cdnPropagated:
                guard case .double(let delay)? = entry.detail["delay"], let hash = entry.detail["hash"]?.stringValue
                else { continue }
                events.append(
                    .cdnPropagated(
                        id: makeID(), domain: report.domain, delaySeconds: delay, hash: hash, verdict: report.verdict,
                        at: entry.at))
            default:
                continue
            }
        }
        return events
    }

    private static func document(_ canonicalText: String) -> AASADocument? {
        AASAParser.parse(Array(canonicalText.utf8)).document
    }
}

extension DaemonRuntime {
    /// The alerting context of the configuration in force. Alert states are kept even without webhooks, so
    /// `status` shows them.
    var alertingContext: AlertingContext {
        AlertingContext(policy: configuration.alertPolicy, webhooks: configuration.webhooks)
    }

    /// How deliveries are retried under the configuration in force.
    var deliveryPolicy: DeliveryPolicy {
        DeliveryPolicy(giveUpAfter: configuration.alerts.giveUpAfter.seconds)
    }
}

extension MonitorConfiguration {
    /// The alert policy of the `alerts` section.
    var alertPolicy: AlertPolicy {
        AlertPolicy(
            failureThreshold: alerts.failureThreshold, successThreshold: alerts.successThreshold,
            repeatAfter: alerts.repeatAfter?.seconds ?? 0, sendResolved: alerts.sendResolved)
    }
}

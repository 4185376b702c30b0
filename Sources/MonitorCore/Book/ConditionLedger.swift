import Foundation
import MonitorEvaluation

/// The monitor's own conditions (`monitor.*`) on their way to the journal: each transition becomes an event and a
/// delivery for every webhook that wants it, as a domain's alerts do in `DomainLedger`.
public enum ConditionLedger {
    /// The events of `transitions` and their deliveries to `webhooks`.
    public static func records(
        of transitions: [MonitorConditions.Transition], webhooks: [WebhookConfiguration], makeID: () -> String
    ) -> (events: [MonitorEvent], deliveries: [LedgerDelivery]) {
        var events: [MonitorEvent] = []
        var deliveries: [LedgerDelivery] = []
        for transition in transitions {
            let event = MonitorEvent.monitor(transition, id: makeID())
            events.append(event)
            for webhook in webhooks where DomainLedger.wants(webhook, event) {
                deliveries.append(
                    LedgerDelivery(
                        deliveryID: DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name),
                        webhook: webhook.name, event: event))
            }
        }
        return (events, deliveries)
    }
}

import Foundation
import Logging
import MonitorCore

/// Writes the monitor's condition changes (`monitor.*`) with their webhook deliveries, and logs them: shared by the
/// scheduler (conditions seen in checks) and housekeeping (the store's own faults).
struct ConditionRecorder: Sendable {
    let runtime: DaemonRuntime
    let store: MonitorStore
    let logger: Logger
    let clock: @Sendable () -> Date

    /// Records `transitions`; returns false when the store could not take them (they are logged either way).
    @discardableResult
    func record(_ transitions: [MonitorConditions.Transition]) async -> Bool {
        let now = clock()
        let webhooks = await runtime.configuration.webhooks
        var generator = SystemRandomNumberGenerator()
        var deliveries: [OutboxInsert] = []
        var codes: [String] = []
        for transition in transitions {
            let event = MonitorEvent.monitor(transition, id: EventID.make(at: now, using: &generator))
            codes.append(event.code)
            logger.notice(
                "\(event.type.rawValue)",
                metadata: ["code": "\(event.code)", "since": "\(event.detail["since"]?.logText ?? "-")"])
            let wanting = webhooks.filter { DomainLedger.wants($0, event) }
            guard !wanting.isEmpty, let json = try? MonitorJSON.encoder().encode(event) else { continue }
            for webhook in wanting {
                deliveries.append(
                    OutboxInsert(
                        deliveryID: DeliveryIdentity.deliveryID(eventID: event.id, webhookName: webhook.name),
                        eventID: event.id, webhook: webhook.name, eventJSON: json, createdAt: now, nextAttemptAt: now))
            }
        }
        do {
            try await store.record(conditions: transitions, deliveries: deliveries)
            await runtime.markOutboxChanged()
            return true
        } catch {
            // The condition is kept in memory (status line, /healthz) but not in the database, and its webhooks are
            // not sent: say so, and where the cause is.
            logger.error(
                "a monitor condition could not be written to the state database: its webhooks are not sent and status will not show it; error= says why, /healthz shows the store's state",
                metadata: ["codes": "\(codes.joined(separator: ","))", "error": "\(error)"])
            return false
        }
    }
}

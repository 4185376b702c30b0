import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// One pass over the outbox: every due delivery is sent, and its answer recorded as delivered, a retry at a
/// later time, or dead. The delivery loop (`DeliveryService`) runs passes; tests run them with a scripted
/// transport, an in-memory store and a clock of their own.
///
/// Every attempt ends in a row change, whatever went wrong: a failure of ours (no trust anchors, a signer
/// refusing its key) is retried with backoff like a receiver that did not answer. Only a stopping daemon leaves
/// a row untouched, and a row whose change could not be written is reported so the loop waits before reading
/// again. So no failure can make the loop send the same rows again at once.
///
/// At-least-once: a delivery is marked only after the receiver answered, so a crash in between sends it again —
/// with the same `webhook-id`, which receivers use to drop the duplicate. A delivery whose webhook was removed
/// from the configuration goes to dead letter with that reason.
package struct OutboxDeliverer: Sendable {
    let store: any DeliveryQueue
    let sender: WebhookSender
    let logger: Logger
    let clock: @Sendable () -> Date
    /// A value in [0, 1) for the backoff's jitter.
    let random: @Sendable () -> Double
    /// The most deliveries in flight at once.
    package var parallelism = 8

    package init(
        store: any DeliveryQueue, transport: any WebhookTransport, logger: Logger,
        clock: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.store = store
        self.sender = WebhookSender(transport: transport)
        self.logger = logger
        self.clock = clock
        self.random = random
    }

    /// What one pass did.
    package struct Pass: Sendable, Hashable {
        /// Deliveries attempted (sent, or failed before sending).
        package var attempted = 0
        /// Attempts whose outcome could not be written: the rows stay as they were, so the loop must wait.
        package var unrecorded = 0
        /// The daemon is stopping: the transport was shut down or the task cancelled.
        package var stopped = false
    }

    /// How one delivery ended, for the pass: `gone` was dropped before its attempt began, and nothing was sent.
    enum Result {
        case recorded, unrecorded, stopped, gone
    }

    /// How long past an attempt's timeout its "being sent" mark lasts: the time to write the attempt's outcome.
    static let sendingMargin: TimeInterval = 10

    /// Sends what is due now, at most `parallelism` at once; throws only when the outbox cannot be read.
    package func deliverDue(webhooks: [WebhookConfiguration], policy: DeliveryPolicy) async throws -> Pass {
        let due = try await store.dueDeliveries(now: clock(), limit: parallelism)
        var pass = Pass()
        let results = await withTaskGroup(of: Result.self) { group in
            for delivery in due {
                group.addTask { await deliver(delivery, webhooks: webhooks, policy: policy) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            switch result {
            case .recorded: pass.attempted += 1
            case .unrecorded:
                pass.attempted += 1
                pass.unrecorded += 1
            case .stopped: pass.stopped = true
            case .gone: break
            }
        }
        return pass
    }

    func deliver(_ delivery: OutboxDelivery, webhooks: [WebhookConfiguration], policy: DeliveryPolicy) async -> Result {
        let started = clock()
        var metadata: Logger.Metadata = [
            "webhook": "\(delivery.webhook)", "delivery_id": "\(delivery.deliveryID)",
            "attempt": "\(delivery.attempts + 1)",
        ]
        guard let webhook = webhooks.first(where: { $0.name == delivery.webhook }) else {
            return await record(
                .dead(reason: "webhook \(delivery.webhook) is no longer configured"), of: delivery, at: started,
                status: nil, metadata: metadata)
        }
        let event: MonitorEvent
        do {
            event = try MonitorJSON.decoder().decode(MonitorEvent.self, from: delivery.eventJSON)
        } catch {
            return await record(
                .dead(reason: "the stored event cannot be read: \(error)"), of: delivery, at: started, status: nil,
                metadata: metadata)
        }
        metadata["event"] = "\(event.type.rawValue)"
        metadata["domain"] = "\(event.domain)"
        // On the wire from here: `outbox drop` refuses the row until the attempt ends (its timeout and a margin
        // bound the mark, should the daemon die). A row dropped a moment ago is not sent at all.
        do {
            let until = started.addingTimeInterval(webhook.timeout.seconds + Self.sendingMargin)
            guard try await store.beginAttempt(id: delivery.id, until: until)
            else { return .gone }
        } catch {
            logger.error("cannot mark a delivery as being sent: \(error)", metadata: metadata)
            return .unrecorded
        }
        let answer: WebhookSender.Answer
        do {
            answer = try await sender.send(event, to: webhook, deliveryID: delivery.deliveryID, now: started)
        } catch is WebhookSender.Stopped {
            return .stopped
        } catch {
            return await record(
                .dead(reason: "cannot be sent: \(error)"), of: delivery, at: started, status: nil, metadata: metadata)
        }
        let now = clock()
        let decision = policy.decide(
            answer.outcome, attempt: delivery.attempts + 1, firstAttemptAt: delivery.firstAttemptAt ?? started,
            now: now, retryAfter: answer.retryAfter, random: random)
        switch answer.outcome {
        case .status(let status):
            metadata["status"] = "\(status)"
            return await record(
                decision, of: delivery, at: now, status: status, error: answer.bodySummary, metadata: metadata)
        case .transportFailure(let text):
            metadata["failure"] = "\(text.prefix { $0 != ":" })"
            return await record(decision, of: delivery, at: now, status: nil, error: text, metadata: metadata)
        }
    }

    /// Writes `decision` to the delivery's row and logs it.
    private func record(
        _ decision: DeliveryDecision, of delivery: OutboxDelivery, at now: Date, status: Int?, error: String? = nil,
        metadata: Logger.Metadata
    ) async -> Result {
        var metadata = metadata
        do {
            switch decision {
            case .delivered:
                try await store.markDelivered(id: delivery.id, at: now, status: status ?? 0)
                logger.info("delivered", metadata: metadata)
                let woken = try await store.wakeDeliveries(webhook: delivery.webhook, at: now)
                if woken > 0 {
                    logger.info(
                        "deliveries woken: the receiver answers again",
                        metadata: ["webhook": "\(delivery.webhook)", "count": "\(woken)"])
                }
            case .retry(let next):
                try await store.markRetry(id: delivery.id, at: now, nextAttemptAt: next, status: status, error: error)
                metadata["next_attempt"] = "\(RFC3339.string(next))"
                if let error, status == nil { metadata["error"] = "\(error)" }
                logger.warning("delivery failed, will retry", metadata: metadata)
            case .dead(let reason):
                try await store.markDead(id: delivery.id, at: now, status: status, error: reason)
                metadata["reason"] = "\(reason)"
                logger.error("delivery dead-lettered", metadata: metadata)
            }
            return .recorded
        } catch {
            // The row stays as it was and is sent again (same webhook-id) after the loop's pause.
            metadata["error"] = "\(error)"
            logger.error("delivery outcome not recorded", metadata: metadata)
            return .unrecorded
        }
    }
}

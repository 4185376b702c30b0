import Foundation
import HTTPEngine
import Logging
import ServiceLifecycle

/// Delivers the outbox: every due delivery is sent, then marked delivered, scheduled for a retry, or dead.
///
/// At-least-once: a delivery is marked only after the receiver answered, so a crash in between sends it again —
/// with the same `webhook-id`, which receivers use to drop the duplicate. A delivery whose webhook was removed
/// from the configuration goes to dead letter with that reason.
struct DeliveryService: Service {
    let runtime: DaemonRuntime
    let store: MonitorStore
    let sender: WebhookSender
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The most deliveries in flight at once.
    var parallelism = 8
    var tick: Duration = .milliseconds(200)

    /// Reads the outbox only when it can have something due: at start, after a check was recorded (it may have
    /// queued deliveries), after deliveries were sent, and when the earliest retry comes due. An idle daemon does
    /// not query the database five times a second.
    func run() async throws {
        var mustRead = true
        var nextAttempt: Date?
        while !Task.isCancelledOrShuttingDown {
            let checked = await runtime.takeOutboxChanged()
            guard mustRead || checked || nextAttempt.map({ $0 <= clock() }) == true else {
                try? await Task.sleep(for: tick)
                continue
            }
            let due: [OutboxDelivery]
            do {
                due = try await store.dueDeliveries(now: clock(), limit: parallelism)
                nextAttempt = due.isEmpty ? try await store.nextAttemptTime() : nil
            } catch {
                logger.error("outbox could not be read", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(5))
                continue
            }
            // After a batch, read again at once: more may be due, and the batch set new retry times.
            mustRead = !due.isEmpty
            if due.isEmpty {
                try? await Task.sleep(for: tick)
                continue
            }
            let webhooks = await runtime.configuration.webhooks
            let policy = await runtime.deliveryPolicy
            await withDiscardingTaskGroup { group in
                for delivery in due {
                    group.addTask { await deliver(delivery, webhooks: webhooks, policy: policy) }
                }
            }
        }
    }

    func deliver(_ delivery: OutboxDelivery, webhooks: [WebhookConfiguration], policy: DeliveryPolicy) async {
        let started = clock()
        let metadata: Logger.Metadata = [
            "webhook": "\(delivery.webhook)", "delivery_id": "\(delivery.deliveryID)",
            "attempt": "\(delivery.attempts + 1)",
        ]
        guard let webhook = webhooks.first(where: { $0.name == delivery.webhook }) else {
            await giveUp(delivery, at: started, reason: "webhook no longer configured", metadata: metadata)
            return
        }
        let answer: WebhookSender.Answer
        do {
            let event = try MonitorJSON.decoder().decode(MonitorEvent.self, from: delivery.eventJSON)
            answer = try await sender.send(event, to: webhook, deliveryID: delivery.deliveryID, now: started)
        } catch is CancellationError {
            return  // shutting down: the row stays pending and is sent after the restart
        } catch let error as HTTPEngineError {
            logger.warning("delivery postponed: \(error)", metadata: metadata)
            return
        } catch {
            // The stored event cannot be read or rendered, or the secret is unusable: no retry can change that.
            await giveUp(delivery, at: started, reason: "cannot be sent: \(error)", metadata: metadata)
            return
        }
        await record(answer, for: delivery, startedAt: started, policy: policy, metadata: metadata)
    }

    private func record(
        _ answer: WebhookSender.Answer,
        for delivery: OutboxDelivery,
        startedAt started: Date,
        policy: DeliveryPolicy,
        metadata: Logger.Metadata
    ) async {
        let now = clock()
        let decision = policy.decide(
            answer.outcome, attempt: delivery.attempts + 1, firstAttemptAt: delivery.firstAttemptAt ?? started,
            now: now, retryAfter: answer.retryAfter, random: { Double.random(in: 0..<1) })
        let status: Int? = if case .status(let code) = answer.outcome { code } else { nil }
        let problem: String? = if case .transportFailure(let text) = answer.outcome { text } else { nil }
        do {
            switch decision {
            case .delivered:
                try await store.markDelivered(id: delivery.id, at: now, status: status ?? 0)
                logger.info("delivered", metadata: metadata.merging(["status": "\(status ?? 0)"]) { $1 })
            case .retry(let next):
                try await store.markRetry(
                    id: delivery.id, at: now, nextAttemptAt: next, status: status, error: problem ?? answer.bodyExcerpt)
                logger.warning(
                    "delivery failed, will retry",
                    metadata: metadata.merging(
                        ["status": "\(status.map(String.init) ?? "none")", "next_attempt": "\(RFC3339.string(next))"]
                    ) { $1 })
            case .dead(let reason):
                try await store.markDead(id: delivery.id, at: now, status: status, error: reason)
                logger.error("delivery dead-lettered", metadata: metadata.merging(["reason": "\(reason)"]) { $1 })
            }
        } catch {
            // The answer could not be recorded: the row stays pending and is sent again (same webhook-id).
            logger.error("delivery outcome not recorded", metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }

    private func giveUp(_ delivery: OutboxDelivery, at time: Date, reason: String, metadata: Logger.Metadata) async {
        do {
            try await store.markDead(id: delivery.id, at: time, status: nil, error: reason)
            logger.error("delivery dead-lettered", metadata: metadata.merging(["reason": "\(reason)"]) { $1 })
        } catch {
            logger.error("delivery outcome not recorded", metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }
}

extension DeliveryService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "delivery" }
}

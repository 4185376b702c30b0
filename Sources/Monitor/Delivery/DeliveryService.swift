import Foundation
import HTTPEngine
import Logging
import MonitorCore
import MonitorStore
import ServiceLifecycle

/// The delivery loop: runs `OutboxDeliverer` passes when something can be due, under the configuration in force.
///
/// Reads the outbox when it can have something due: at start, after a check was recorded (it may have queued
/// deliveries), after deliveries were attempted, when the earliest retry comes due, and at least every
/// `outboxPoll`, because `outbox retry` in another process changes the table without telling this one. An idle
/// daemon makes two indexed reads every 2 s, not five a second. When the outbox cannot be read or an outcome
/// cannot be written, it waits, doubling the pause up to a minute, instead of sending the same rows again at once.
struct DeliveryService: Service {
    let runtime: DaemonRuntime
    let deliverer: OutboxDeliverer
    let store: MonitorStore
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The longest the loop sleeps without a signal or a due retry.
    var longestSleep: Duration = .seconds(30)
    /// The longest the loop goes without reading the outbox: a delivery that `outbox retry` made due goes out
    /// within this time.
    var outboxPoll: Duration = .seconds(2)

    init(
        runtime: DaemonRuntime, store: MonitorStore, transport: any WebhookTransport, logger: Logger,
        clock: @escaping @Sendable () -> Date
    ) {
        self.runtime = runtime
        self.store = store
        self.deliverer = OutboxDeliverer(store: store, transport: transport, logger: logger, clock: clock)
        self.logger = logger
        self.clock = clock
    }

    /// The first pause after a store failure; it doubles while failures go on.
    static let firstStorePause: Duration = .seconds(1)
    static let longestStorePause: Duration = .seconds(60)

    func run() async throws {
        var mustRead = true
        var nextAttempt: Date?
        var storePause = Self.firstStorePause
        var lastRead = ContinuousClock.now
        while !Task.isCancelledOrShuttingDown {
            let checked = await runtime.takeOutboxChanged()
            let polled = ContinuousClock.now - lastRead >= outboxPoll
            guard mustRead || checked || polled || nextAttempt.map({ $0 <= clock() }) == true else {
                await sleep(until: nextAttempt)
                continue
            }
            lastRead = ContinuousClock.now
            let pass: OutboxDeliverer.Pass
            do {
                pass = try await deliverer.deliverDue(
                    webhooks: await runtime.configuration.webhooks, policy: await runtime.configuration.deliveryPolicy)
                nextAttempt = pass.attempted == 0 ? try await store.nextAttemptTime() : nil
            } catch {
                logger.error(
                    "outbox could not be read", metadata: ["error": "\(error)", "retry_in": "\(storePause)"])
                await pause(storePause)
                storePause = min(storePause * 2, Self.longestStorePause)
                mustRead = true
                continue
            }
            // Stopped: the daemon is shutting down (the loop's condition ends it), or the engine is gone, which
            // no retry can mend soon: wait like after a store failure rather than asking again at once.
            if pass.unrecorded > 0 || pass.stopped {
                await pause(storePause)
                storePause = min(storePause * 2, Self.longestStorePause)
            } else {
                storePause = Self.firstStorePause
            }
            // After a batch, read again at once: more may be due, and the batch set new retry times.
            mustRead = pass.attempted > 0
        }
    }
}

extension DeliveryService {
    /// Sleeps until the next retry is due, the outbox changed, or a graceful shutdown begins.
    func sleep(until nextAttempt: Date?) async {
        var wait = min(longestSleep, outboxPoll)
        if let nextAttempt {
            let seconds = max(0, nextAttempt.timeIntervalSince(clock()))
            wait = min(wait, .milliseconds(Int((seconds * 1000).rounded(.up))))
        }
        let signal = runtime.deliveryWake
        let deadline = ContinuousClock.now + max(wait, .milliseconds(1))
        await cancelWhenGracefulShutdown { await signal.wait(until: deadline) }
    }

    /// Sleeps for `duration`, or less when a graceful shutdown begins: a pause of up to a minute after store
    /// failures must not hold up the daemon's stop.
    func pause(_ duration: Duration) async {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }
}

extension DeliveryService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "delivery" }
}

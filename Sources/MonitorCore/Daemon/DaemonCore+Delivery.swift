import Foundation

extension DaemonCore {
    /// A delivery pass ended. After deliveries were attempted the outbox is read again at once (more may be due,
    /// and the pass set new retry times); otherwise at the earliest retry, at most `outboxPoll` later, because
    /// `outbox retry` in another process changes the table without telling this one. A pass that could not write an
    /// outcome, or that stopped (the engine is gone), waits like after a store failure rather than asking at once.
    mutating func delivered(attempted: Int, unrecorded: Int, stopped: Bool, nextAttempt: Date?, now: Date) {
        deliveryRunning = false
        if unrecorded > 0 || stopped {
            pauseDelivery(now: now)
            return
        }
        deliveryPause = tunables.firstDeliveryPause
        deliveryPaused = false
        let poll = now.addingTimeInterval(tunables.outboxPoll)
        deliveryDueAt = attempted > 0 ? now : min(nextAttempt ?? poll, poll)
    }

    /// Waits out a pause after a failure, doubling it up to `longestDeliveryPause` while failures go on.
    mutating func pauseDelivery(now: Date) {
        deliveryDueAt = now.addingTimeInterval(deliveryPause)
        deliveryPaused = true
        deliveryPause = min(deliveryPause * 2, tunables.longestDeliveryPause)
    }
}

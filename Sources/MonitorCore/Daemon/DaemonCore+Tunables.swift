import Foundation

extension DaemonCore {
    /// The daemon's timing constants, named so tests can set them; the defaults are the daemon's.
    package struct Tunables: Sendable {
        /// The longest the core goes without a tick: `/healthz` and the watchdog see the loop alive on a daemon
        /// whose next check is far away.
        package var longestSleep: TimeInterval
        /// How old the stored silences may be when checks start: `silence add` writes them from another process.
        package var silenceRefresh: TimeInterval
        /// The most checks in one journal transaction.
        package var batchLimit: Int
        /// How long after a failed append the monitor's conditions are tried again on their own.
        package var conditionRetry: TimeInterval
        /// The longest the delivery loop goes without reading the outbox: `outbox retry` in another process makes
        /// deliveries due without telling the daemon.
        package var outboxPoll: TimeInterval
        /// The first pause after the outbox could not be read or written; it doubles up to `longestDeliveryPause`.
        package var firstDeliveryPause: TimeInterval
        package var longestDeliveryPause: TimeInterval
        /// The schedule's jitter (a fraction of the interval).
        package var jitter: Double
        /// The window new domains are spread over at start; `nil`: `DaemonCore.startupWindow`'s rule.
        package var startupWindow: TimeInterval?

        package init(
            longestSleep: TimeInterval = 10, silenceRefresh: TimeInterval = 0.5, batchLimit: Int = 128,
            conditionRetry: TimeInterval = 10, outboxPoll: TimeInterval = 2, firstDeliveryPause: TimeInterval = 1,
            longestDeliveryPause: TimeInterval = 60, jitter: Double = 0.1, startupWindow: TimeInterval? = nil
        ) {
            self.longestSleep = longestSleep
            self.silenceRefresh = silenceRefresh
            self.batchLimit = batchLimit
            self.conditionRetry = conditionRetry
            self.outboxPoll = outboxPoll
            self.firstDeliveryPause = firstDeliveryPause
            self.longestDeliveryPause = longestDeliveryPause
            self.jitter = jitter
            self.startupWindow = startupWindow
        }
    }

    /// New domains are spread over 2 s plus 50 ms per domain, at most their shortest interval: a few domains are
    /// checked at once (a person starting the daemon sees results), a thousand do not all start in the same second,
    /// and 100,000 at a 15-minute interval take the first interval rather than the CPU's fastest pace.
    package static func startupWindow(shortestInterval: TimeInterval, domains: Int) -> TimeInterval {
        min(shortestInterval, 2 + 0.05 * Double(domains))
    }
}

/// The core's randomness (the schedule's spread and jitter, event ids) behind one type, so tests inject a seeded
/// generator.
struct CoreRandom: RandomNumberGenerator {
    var base: any RandomNumberGenerator

    mutating func next() -> UInt64 { base.next() }
}

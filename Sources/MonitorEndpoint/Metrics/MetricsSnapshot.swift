import Foundation

/// Everything `/metrics` reports, taken at one moment: per-domain state, the webhook outbox and scheduler liveness.
///
/// The endpoint asks for a fresh snapshot on every scrape and renders it with `prometheusText()`: the domains'
/// figures come from the daemon's book (`DaemonRuntime.metrics`), the outbox counts from the store, and the
/// renderer holds no state of its own.
package struct MetricsSnapshot: Sendable, Hashable {
    /// One entry per monitored domain.
    package var domains: [DomainMetrics]
    /// How many webhook deliveries wait or were given up on: `pending` (not yet tried), `retrying`, `dead`.
    package var outboxDeliveries: [String: Int]
    /// When the scheduler last finished a unit of work; `nil` before the first.
    package var schedulerLastProgress: Date?

    /// Creates a snapshot.
    package init(
        domains: [DomainMetrics] = [], outboxDeliveries: [String: Int] = [:], schedulerLastProgress: Date? = nil
    ) {
        self.domains = domains
        self.outboxDeliveries = outboxDeliveries
        self.schedulerLastProgress = schedulerLastProgress
    }
}

import Foundation

/// What the delivery loop (`OutboxDeliverer`) needs of an outbox: SQLite's (`MonitorStore`) or a cluster's on
/// PostgreSQL, where a due delivery is also claimed so that one node sends it.
package protocol DeliveryQueue: Sendable {
    /// Deliveries due at `now`, at most `limit`, earliest first.
    func dueDeliveries(now: Date, limit: Int) async throws -> [OutboxDelivery]
    /// Marks delivery `id` as on the wire until `until`; `false`: it must not be sent (dropped, or no longer ours).
    func beginAttempt(id: Int64, until: Date) async throws -> Bool
    func markDelivered(id: Int64, at time: Date, status: Int) async throws
    func markRetry(id: Int64, at time: Date, nextAttemptAt: Date, status: Int?, error: String?) async throws
    func markDead(id: Int64, at time: Date, status: Int?, error: String?) async throws
    /// Makes the pending deliveries to `webhook` due at `time` (its receiver answers again); how many.
    @discardableResult func wakeDeliveries(webhook: String, at time: Date) async throws -> Int
    /// When the earliest pending delivery is due.
    func nextAttemptTime() async throws -> Date?
}

extension MonitorStore: DeliveryQueue {}

import Foundation
import MonitorStore
import PostgresNIO

/// The cluster's outbox as the delivery loop reads it: a due delivery is claimed by this node for `claimFor`
/// seconds (a node that dies mid-send leaves it to another after that), and every outcome is written only while
/// the claim is this node's.
extension PostgresStore: DeliveryQueue {
    /// How long a claimed delivery stays this node's before its attempt begins (`beginAttempt` sets the attempt's
    /// own deadline).
    static let claimFor: Double = 60

    package func dueDeliveries(now: Date, limit: Int) async throws -> [OutboxDelivery] {
        try await claimDeliveries(limit: limit, ttl: Self.claimFor).map { claimed in
            OutboxDelivery(
                id: claimed.id, state: .pending, deliveryID: claimed.deliveryID, eventID: claimed.eventID,
                webhook: claimed.webhook, eventJSON: claimed.body, attempts: claimed.attempts - 1,
                firstAttemptAt: claimed.firstAttemptAt, nextAttemptAt: now, lastStatus: nil, lastError: nil,
                createdAt: claimed.createdAt)
        }
    }

    package func beginAttempt(id: Int64, until: Date) async throws -> Bool {
        let node = self.node
        return try await !rows(
            "marking a post as being sent",
            """
            UPDATE outbox SET claimed_until = \(until)
            WHERE id = \(id) AND claimed_by = \(node) AND delivered_at IS NULL AND dead_at IS NULL
            RETURNING id
            """
        ).isEmpty
    }

    package func markDelivered(id: Int64, at time: Date, status: Int) async throws {
        try await delivered(id: id, status: status)
    }

    package func markRetry(id: Int64, at time: Date, nextAttemptAt: Date, status: Int?, error: String?) async throws {
        let node = self.node
        _ = try await rows(
            "recording a failed post",
            """
            UPDATE outbox
            SET claimed_by = NULL, claimed_until = NULL, last_status = \(status), last_error = \(error),
                next_attempt = \(nextAttemptAt)
            WHERE id = \(id) AND claimed_by = \(node)
            """)
    }

    package func markDead(id: Int64, at time: Date, status: Int?, error: String?) async throws {
        let node = self.node
        _ = try await rows(
            "dead-lettering a post",
            """
            UPDATE outbox
            SET claimed_by = NULL, claimed_until = NULL, dead_at = now(), last_status = \(status),
                last_error = \(error)
            WHERE id = \(id) AND claimed_by = \(node)
            """)
    }

    @discardableResult
    package func wakeDeliveries(webhook: String, at time: Date) async throws -> Int {
        try await rows(
            "waking posts",
            """
            UPDATE outbox SET next_attempt = now()
            WHERE webhook = \(webhook) AND delivered_at IS NULL AND dead_at IS NULL AND next_attempt > now()
            RETURNING id
            """
        ).count
    }

    package func nextAttemptTime() async throws -> Date? {
        let rows = try await rows(
            "reading the next post's time",
            "SELECT min(next_attempt) FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL")
        return try rows.first?.decode(Date?.self) ?? nil
    }
}

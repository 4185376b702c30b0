import Foundation
import PostgresNIO

/// A post claimed for delivery by this node.
package struct ClaimedDelivery: Sendable, Hashable {
    package var id: Int64
    package var domain: String
    package var webhook: String
    /// The webhook-id of every attempt, by whichever node makes it: a receiver recognises a re-send by it.
    package var deliveryID: String
    package var body: Data
    /// Attempts so far, this one included.
    package var attempts: Int
    package var eventID: String
    package var firstAttemptAt: Date
    package var createdAt: Date
}

/// The outbox: each post claimed by one node at a time, with a claim deadline after which another may take it.
///
/// Delivery is at-least-once (a node that crashes between the receiver's 2xx and `delivered` leaves the row to be
/// posted again, with the same webhook-id); emission is exactly once (`PostgresJournal`'s unique key).
extension PostgresStore {
    /// Claims at most `limit` posts due now for `ttl` seconds. Per webhook and domain only the oldest undelivered
    /// post is claimable, so a resolution never overtakes its firing, whichever nodes send them.
    package func claimDeliveries(limit: Int, ttl: Double) async throws(PostgresStoreError) -> [ClaimedDelivery] {
        let node = self.node
        let rows = try await rows(
            "claiming posts",
            """
            UPDATE outbox AS o
            SET claimed_by = \(node), claimed_until = now() + make_interval(secs => \(ttl)), attempts = o.attempts + 1,
                first_attempt_at = coalesce(o.first_attempt_at, now())
            WHERE o.id IN (
                SELECT id FROM outbox AS c
                WHERE c.delivered_at IS NULL AND c.dead_at IS NULL AND c.next_attempt <= now()
                  AND (c.claimed_until IS NULL OR c.claimed_until < now())
                  AND NOT EXISTS (
                      SELECT 1 FROM outbox AS p
                      WHERE p.webhook = c.webhook AND p.domain = c.domain AND p.id < c.id AND p.delivered_at IS NULL
                        AND p.dead_at IS NULL)
                ORDER BY c.id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED)
            RETURNING o.id, o.domain, o.webhook, o.delivery_id, o.body, o.attempts, o.event_id, o.first_attempt_at,
                      o.created_at
            """)
        do {
            return try rows.map { row in
                let (id, domain, webhook, deliveryID, body, attempts, eventID, firstAttempt, created) = try row.decode(
                    (Int64, String, String, String, Data, Int, String, Date, Date).self)
                return ClaimedDelivery(
                    id: id, domain: domain, webhook: webhook, deliveryID: deliveryID, body: body, attempts: attempts,
                    eventID: eventID, firstAttemptAt: firstAttempt, createdAt: created)
            }.sorted { $0.id < $1.id }
        } catch {
            throw .describing(error, while: "reading claimed posts")
        }
    }

    /// Marks a post delivered; false when this node's claim had lapsed and another node took it (that node may
    /// post it again: at-least-once).
    package func delivered(_ delivery: ClaimedDelivery) async throws(PostgresStoreError) -> Bool {
        try await delivered(id: delivery.id, status: nil)
    }

    /// `delivered(_:)` by the row's id, with the receiver's status when there was one.
    @discardableResult
    package func delivered(id: Int64, status: Int?) async throws(PostgresStoreError) -> Bool {
        let node = self.node
        let rows = try await rows(
            "marking a post delivered",
            """
            UPDATE outbox SET delivered_at = now(), delivered_by = \(node), claimed_by = NULL, claimed_until = NULL,
                last_status = \(status)
            WHERE id = \(id) AND claimed_by = \(node) AND delivered_at IS NULL
            RETURNING id
            """)
        return !rows.isEmpty
    }
}

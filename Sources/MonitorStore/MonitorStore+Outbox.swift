import Foundation
import GRDB

/// The webhook outbox: deliveries are written before any attempt and change state only here.
///
/// Lifecycle of a row: `pending` (attempts 0) → attempted: `delivered` (final), `pending` again with a later
/// `next_attempt_at` (retrying), or `dead` (final, given up). Every change is its own transaction.
extension MonitorStore {
    /// Enqueues deliveries outside a check (the `webhook test` path); duplicates by delivery id are ignored.
    @discardableResult
    package func enqueue(_ inserts: [OutboxInsert]) async throws -> Int {
        try await writer.write { db in try Self.insertDeliveries(db, inserts) }
    }

    /// Pending deliveries whose next attempt is due at `now`, earliest first.
    package func dueDeliveries(now: Date, limit: Int = 100) async throws -> [OutboxDelivery] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM outbox WHERE state = ? AND next_attempt_at <= ?
                    ORDER BY next_attempt_at, id LIMIT ?
                    """,
                arguments: [OutboxState.pending, StoredInstant(now), limit]
            ).map(Self.delivery)
        }
    }

    /// Every delivery in the outbox, oldest first: for tests and diagnostics.
    package func allDeliveries() async throws -> [OutboxDelivery] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map(Self.delivery)
        }
    }

    /// Makes every pending delivery to `webhook` due at `time`: its receiver just took a delivery, so the others
    /// need not wait out a backoff that was sized for a receiver that was down. Returns how many were woken.
    @discardableResult
    package func wakeDeliveries(webhook: String, at time: Date) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET next_attempt_at = ? WHERE state = ? AND webhook = ? AND next_attempt_at > ?
                    """,
                arguments: [StoredInstant(time), OutboxState.pending, webhook, StoredInstant(time)])
            return db.changesCount
        }
    }

    /// When the earliest pending delivery is due, so the delivery loop can sleep until then.
    package func nextAttemptTime() async throws -> Date? {
        try await reader.nextAttemptTime()
    }

    /// Marks delivery `id` as on the wire until `until` (the attempt's timeout and a margin), so `outbox drop` and
    /// `retry` refuse it meanwhile. Returns `false` when the row is no longer pending (dropped a moment ago): then it
    /// must not be sent. A crash leaves the mark, which expires by itself.
    package func beginAttempt(id: Int64, until: Date) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET sending_until = ? WHERE id = ? AND state = ?",
                arguments: [StoredInstant(until), id, OutboxState.pending])
            return db.changesCount > 0
        }
    }

    /// The receiver accepted the delivery.
    package func markDelivered(id: Int64, at time: Date, status: Int) async throws {
        try await finishAttempt(id: id, at: time, status: status, error: nil, ending: .delivered)
    }

    /// The attempt failed; try again at `nextAttemptAt`.
    package func markRetry(id: Int64, at time: Date, nextAttemptAt: Date, status: Int?, error: String?) async throws {
        try await finishAttempt(id: id, at: time, status: status, error: error, ending: .retry(at: nextAttemptAt))
    }

    /// The attempt failed and no more will be made.
    package func markDead(id: Int64, at time: Date, status: Int?, error: String?) async throws {
        try await finishAttempt(id: id, at: time, status: status, error: error, ending: .dead)
    }

    /// Outbox rows by delivery state.
    package func outboxCounts() async throws -> OutboxCounts { try await reader.outboxCounts() }

    /// How an attempt ended: the row's next state, and when it is tried again.
    private enum AttemptEnding {
        case delivered
        case retry(at: Date)
        case dead

        var state: OutboxState {
            switch self {
            case .delivered: .delivered
            case .retry: .pending
            case .dead: .dead
            }
        }

        var nextAttempt: Date? {
            if case .retry(let date) = self { return date }
            return nil
        }
    }

    /// Counts one attempt on a pending row and moves it to the state `ending` names, with one fixed statement:
    /// `next_attempt_at` changes only on a retry, `delivered_at` only on delivery, `finished_at` on either final state.
    private func finishAttempt(
        id: Int64, at time: Date, status: Int?, error: String?, ending: AttemptEnding
    ) async throws {
        let at = StoredInstant(time)
        let finished = ending.state == .pending ? nil : at
        let delivered = ending.state == .delivered ? at : nil
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, :at),
                      last_status = :status, last_error = :error, state = :state,
                      next_attempt_at = coalesce(:next, next_attempt_at), delivered_at = :delivered,
                      finished_at = :finished, sending_until = NULL
                    WHERE id = :id AND state = :pending
                    """,
                arguments: [
                    "at": at, "status": status, "error": error, "state": ending.state,
                    "next": ending.nextAttempt.map { StoredInstant($0) },
                    "delivered": delivered, "finished": finished, "id": id, "pending": OutboxState.pending,
                ])
        }
    }

    private static func delivery(_ row: Row) -> OutboxDelivery {
        OutboxDelivery(
            id: row["id"], state: OutboxState(rawValue: row["state"]) ?? .pending, deliveryID: row["delivery_id"],
            eventID: row["event_id"], webhook: row["webhook"],
            eventJSON: row["event_json"], attempts: row["attempts"],
            firstAttemptAt: row.optionalDate("first_attempt_at"),
            nextAttemptAt: row.date("next_attempt_at"), lastStatus: row["last_status"], lastError: row["last_error"],
            createdAt: row.date("created_at"))
    }
}

import Foundation
import GRDB

/// Dead letters a person can act on (issue 25 item 7): list the outbox, send a delivery again, or drop one.
///
/// The outbox is a table of the state database, so these work with the daemon running or stopped; `outbox`
/// commands call them, and an HTTP API can call the same ones. A running daemon's delivery loop looks at the outbox
/// at least every `DeliveryService.outboxPoll` (2 s), so a retried delivery goes out within that time.
///
/// A retried dead letter starts over: attempts 0, no first attempt, due now. Keeping its attempts would keep its
/// first attempt's time too, and the give-up age (`webhooks.give_up_after`, 24 h from the first attempt) has passed
/// for most dead letters, so its first failure would kill it again at once. Its event id and delivery id stay, so a
/// receiver that got it before drops the duplicate. Its last status and error stay until the next attempt.
extension MonitorStore {
    /// Brings delivery `id` back: a dead one to pending as described above, a pending one due now (its attempts
    /// kept, it is still within its give-up age). Returns the row as it is now, and whether it was dead (its attempts
    /// were reset), both read in the retry's transaction.
    ///
    /// - Throws: `OutboxRefusal` when there is no such row or it was delivered.
    package func retryDelivery(id: Int64, at now: Date) async throws -> (entry: OutboxEntry, revived: Bool) {
        try await writer.write { db in
            guard let entry = try Self.outboxEntry(db, id: id) else { throw OutboxRefusal(id: id, reason: .unknown) }
            try Self.refuseIfSending(db, entry: entry, now: now)
            switch entry.standing {
            case .delivered: throw OutboxRefusal(id: id, reason: .delivered, entry: entry)
            case .dead: try Self.revive(db, where: "id = ?", arguments: [id], at: now)
            case .pending, .retrying:
                try db.execute(
                    sql: "UPDATE outbox SET next_attempt_at = min(next_attempt_at, ?) WHERE id = ?",
                    arguments: [StoredInstant(now), id])
            }
            return (try Self.outboxEntry(db, id: id) ?? entry, entry.standing == .dead)
        }
    }

    /// Brings every dead delivery back (or every one of `webhook`), in one transaction; returns them as they are now.
    package func retryDeadDeliveries(webhook: String? = nil, at now: Date) async throws -> [OutboxEntry] {
        try await writer.write { db in
            var condition = "state = ?"
            var arguments: StatementArguments = [OutboxState.dead]
            if let webhook {
                condition += " AND webhook = ?"
                arguments += [webhook]
            }
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM outbox WHERE \(condition) ORDER BY id", arguments: arguments)
            try Self.revive(db, where: condition, arguments: arguments, at: now)
            return try ids.compactMap { try Self.outboxEntry(db, id: $0) }
        }
    }

    /// Removes delivery `id`, pending or dead: it is never sent (again). Returns the row as it was.
    ///
    /// - Throws: `OutboxRefusal` when there is no such row, it was delivered (housekeeping removes those), or an
    ///   attempt is on the wire (issue 32 §4: "dropped #7" while the receiver was taking it).
    package func dropDelivery(id: Int64, at now: Date) async throws -> OutboxEntry {
        try await writer.write { db in
            guard let entry = try Self.outboxEntry(db, id: id) else { throw OutboxRefusal(id: id, reason: .unknown) }
            guard entry.standing != .delivered else { throw OutboxRefusal(id: id, reason: .delivered, entry: entry) }
            try Self.refuseIfSending(db, entry: entry, now: now)
            try db.execute(
                sql: "DELETE FROM outbox WHERE id = ? AND state != ?", arguments: [id, OutboxState.delivered])
            return entry
        }
    }

    /// Throws `.sending` while the row's attempt is on the wire (its mark has not expired).
    private static func refuseIfSending(_ db: Database, entry: OutboxEntry, now: Date) throws {
        let stored = try Int64.fetchOne(
            db, sql: "SELECT sending_until FROM outbox WHERE id = ?", arguments: [entry.id])
        guard let stored else { return }
        let until = StoredInstant(milliseconds: stored).date
        guard until > now else { return }
        throw OutboxRefusal(id: entry.id, reason: .sending(until: until), entry: entry)
    }

    /// The outbox row `id` as `outbox list` shows it, or `nil`.
    package func outboxEntry(id: Int64) async throws -> OutboxEntry? {
        try await writer.read { db in try Self.outboxEntry(db, id: id) }
    }

    /// Dead rows matching `condition` back to pending, as from a fresh queue: due `now`, no attempts counted.
    private static func revive(
        _ db: Database, where condition: String, arguments: StatementArguments, at now: Date
    ) throws {
        let all: StatementArguments = [OutboxState.pending, StoredInstant(now)] + arguments
        try db.execute(
            sql: """
                UPDATE outbox SET state = ?, next_attempt_at = ?, attempts = 0, first_attempt_at = NULL,
                  finished_at = NULL, delivered_at = NULL
                WHERE \(condition)
                """,
            arguments: all)
    }

    private static func outboxEntry(_ db: Database, id: Int64) throws -> OutboxEntry? {
        try Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE id = ?", arguments: [id]).map(StoreReader.outboxEntry)
    }
}

extension StoreReader {
    /// The outbox rows `filter` selects, oldest first, and how many it matched. A database without an outbox
    /// table (older than the outbox) has none.
    package func outbox(_ filter: OutboxFilter) async throws -> OutboxListing {
        try await database.read { db in
            guard try db.tableExists("outbox") else { return OutboxListing(deliveries: [], total: 0) }
            var condition = filter.deadOnly ? "state = ?" : "state != ?"
            var arguments: StatementArguments = [filter.deadOnly ? OutboxState.dead : OutboxState.delivered]
            if let webhook = filter.webhook {
                condition += " AND webhook = ?"
                arguments += [webhook]
            }
            let total = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE \(condition)", arguments: arguments)
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM outbox WHERE \(condition) ORDER BY id LIMIT ?",
                arguments: arguments + [filter.limit])
            return OutboxListing(deliveries: rows.map(Self.outboxEntry), total: total ?? 0)
        }
    }

    /// The fields of a stored event that `outbox list` shows; the rest of the body is not read.
    private struct EventFields: Decodable {
        var type: String
        var domain: String
        var code: String
    }

    static func outboxEntry(_ row: Row) -> OutboxEntry {
        let state = OutboxState(rawValue: row["state"]) ?? .pending
        let attempts: Int = row["attempts"]
        let standing: OutboxEntry.Standing =
            switch state {
            case .pending: attempts > 0 ? .retrying : .pending
            case .dead: .dead
            case .delivered: .delivered
            }
        let eventJSON: Data = row["event_json"]
        let event = try? JSONDecoder().decode(EventFields.self, from: eventJSON)
        return OutboxEntry(
            id: row["id"], standing: standing, webhook: row["webhook"], eventID: row["event_id"],
            deliveryID: row["delivery_id"], eventType: event?.type ?? "unreadable", domain: event?.domain ?? "",
            code: event?.code ?? "", attempts: attempts, createdAt: row.date("created_at"),
            nextAttemptAt: state == .pending ? row.date("next_attempt_at") : nil, lastStatus: row["last_status"],
            lastError: row["last_error"], finishedAt: row.optionalDate("finished_at"))
    }
}

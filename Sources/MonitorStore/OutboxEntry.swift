import Foundation
import MonitorCore
import MonitorEvaluation

/// One outbox row as `outbox list` shows it: what the delivery is about and where it stands.
///
/// Never the webhook's URL, secret or headers: those live in the configuration, not in the row. `lastError` is what
/// the deliverer recorded, which never holds a URL's path or query (see `OutboxDeliverer`).
package struct OutboxEntry: Sendable, Hashable {
    /// Where a delivery stands, as `status` counts it.
    package enum Standing: String, Sendable, Hashable, CaseIterable, Encodable {
        /// Waiting for its first attempt (or for the first after `outbox retry` brought it back).
        case pending
        /// Attempted and failed at least once; another attempt is scheduled.
        case retrying
        /// Given up on (dead letter); only `outbox retry` or `outbox drop` change it.
        case dead
        /// The receiver took it; kept for a while, then removed by housekeeping.
        case delivered
    }

    /// The row id: what `outbox retry` and `outbox drop` take.
    package var id: Int64
    package var standing: Standing
    /// The webhook's `name` in the configuration.
    package var webhook: String
    /// The event's id (`evt_…`), the same on every delivery and retry of it.
    package var eventID: String
    /// The `webhook-id` header: the same on every retry, so a receiver drops a duplicate.
    package var deliveryID: String
    /// `alert.firing`, `origin.changed`, …; `unreadable` when the stored event cannot be read.
    package var eventType: String
    /// The domain the event is about; empty for the monitor's own conditions and `test`.
    package var domain: String
    /// The finding code, or the event type for informational events.
    package var code: String
    /// Attempts made since it was queued, or since `outbox retry` brought it back from dead letter.
    package var attempts: Int
    package var createdAt: Date
    /// When the next attempt is due; `nil` once dead or delivered.
    package var nextAttemptAt: Date?
    /// The receiver's HTTP status at the last attempt, when it answered.
    package var lastStatus: Int?
    /// Why the last attempt failed, or why the delivery was given up.
    package var lastError: String?
    /// When it was delivered or given up.
    package var finishedAt: Date?

    /// `alert.firing shop.example.com origin.status`: what the delivery is about, in one line.
    package var subject: String {
        [eventType, domain, code == eventType ? "" : code].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension OutboxEntry: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, state, webhook, domain, code, attempts
        case eventID = "event_id"
        case deliveryID = "delivery_id"
        case eventType = "event_type"
        case createdAt = "created_at"
        case nextAttemptAt = "next_attempt_at"
        case lastStatus = "last_status"
        case lastError = "last_error"
        case finishedAt = "finished_at"
    }

    /// Every key, absent values as `null`; times as RFC 3339 UTC (public interface: add keys, never rename).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(standing, forKey: .state)
        try container.encode(webhook, forKey: .webhook)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(deliveryID, forKey: .deliveryID)
        try container.encode(eventType, forKey: .eventType)
        try container.encode(domain, forKey: .domain)
        try container.encode(code, forKey: .code)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(RFC3339.string(createdAt), forKey: .createdAt)
        try container.encode(nextAttemptAt.map(RFC3339.string), forKey: .nextAttemptAt)
        try container.encode(lastStatus, forKey: .lastStatus)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(finishedAt.map(RFC3339.string), forKey: .finishedAt)
    }
}

/// What `outbox list` lists: undelivered rows (or dead ones only), optionally of one webhook, at most `limit`.
package struct OutboxFilter: Sendable, Hashable {
    /// Only dead letters; otherwise every undelivered row (pending, retrying, dead).
    package var deadOnly: Bool
    /// Only this webhook's rows.
    package var webhook: String?
    /// The most rows returned, oldest first; `OutboxListing.total` counts them all.
    package var limit: Int

    package init(deadOnly: Bool = false, webhook: String? = nil, limit: Int = 100) {
        self.deadOnly = deadOnly
        self.webhook = webhook
        self.limit = max(0, limit)
    }
}

/// The rows a filter selects, and how many it matched before the limit.
package struct OutboxListing: Sendable, Hashable, Encodable {
    package var deliveries: [OutboxEntry]
    /// How many rows the filter matched; more than `deliveries.count` when the limit cut the list.
    package var total: Int

    package init(deliveries: [OutboxEntry], total: Int) {
        self.deliveries = deliveries
        self.total = total
    }
}

/// Why `outbox retry` or `outbox drop` changed nothing.
package struct OutboxRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// No row has this id (never queued, dropped, or removed by housekeeping after delivery).
        case unknown
        /// The receiver already took it: there is nothing to retry or drop.
        case delivered
        /// An attempt is on the wire until this time: dropping it now would not stop the receiver getting it.
        case sending(until: Date)
    }

    package var id: Int64
    package var reason: Reason
    /// The row, when there is one.
    package var entry: OutboxEntry?

    package var description: String {
        switch reason {
        case .unknown: "no delivery \(id) in the outbox (outbox list shows the ids)"
        case .delivered:
            "delivery \(id) (\(entry?.subject ?? "")) was delivered"
                + (entry?.finishedAt.map { " at \(RFC3339.string($0))" } ?? "") + ": nothing to do"
        case .sending(let until):
            "delivery \(id) (\(entry?.subject ?? "")) is being sent right now; its attempt ends by "
                + "\(RFC3339.string(until)): run the command again then"
        }
    }
}

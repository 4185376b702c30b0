import Foundation

/// A webhook delivery to write to the outbox before any attempt.
package struct OutboxInsert: Sendable, Hashable {
    /// Unique per (event, webhook) and the same on every retry: the `webhook-id` header. A second insert with the
    /// same id is ignored, so re-enqueueing after a crash cannot deliver twice from the outbox.
    package var deliveryID: String
    package var eventID: String
    /// The webhook's name in the configuration.
    package var webhook: String
    /// The event as the alerting code encoded it (the store does not read it). `MonitorJSON`, never `StoreCoding`:
    /// it is the webhook body as sent, the public interface, so it stays readable as it is.
    package var eventJSON: Data
    package var createdAt: Date
    /// The first attempt's time; usually `createdAt`.
    package var nextAttemptAt: Date

    package init(
        deliveryID: String, eventID: String, webhook: String, eventJSON: Data, createdAt: Date, nextAttemptAt: Date
    ) {
        self.deliveryID = deliveryID
        self.eventID = eventID
        self.webhook = webhook
        self.eventJSON = eventJSON
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
    }
}

/// A row of the outbox, as `MonitorStore.dueDeliveries` and `allDeliveries` return it.
package struct OutboxDelivery: Sendable, Hashable {
    package var id: Int64
    package var state: OutboxState
    package var deliveryID: String
    package var eventID: String
    package var webhook: String
    package var eventJSON: Data
    /// Attempts made so far (0 before the first).
    package var attempts: Int
    package var firstAttemptAt: Date?
    package var nextAttemptAt: Date
    package var lastStatus: Int?
    package var lastError: String?
    package var createdAt: Date

    package init(
        id: Int64, state: OutboxState, deliveryID: String, eventID: String, webhook: String, eventJSON: Data,
        attempts: Int, firstAttemptAt: Date?, nextAttemptAt: Date, lastStatus: Int?, lastError: String?,
        createdAt: Date
    ) {
        self.id = id
        self.state = state
        self.deliveryID = deliveryID
        self.eventID = eventID
        self.webhook = webhook
        self.eventJSON = eventJSON
        self.attempts = attempts
        self.firstAttemptAt = firstAttemptAt
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.createdAt = createdAt
    }
}

/// Outbox rows by delivery state, for `status` and metrics.
package struct OutboxCounts: Sendable, Hashable, Codable {
    /// Waiting for their first attempt.
    package var pending: Int
    /// Attempted and failed at least once, with another attempt scheduled.
    package var retrying: Int
    /// Given up on.
    package var dead: Int

    package init(pending: Int, retrying: Int, dead: Int) {
        self.pending = pending
        self.retrying = retrying
        self.dead = dead
    }
}

/// A webhook whose deliveries fail now: some wait for a retry, or the last one that ended was given up on.
package struct FailingWebhook: Sendable, Hashable, Encodable {
    /// The webhook's `name`.
    package var webhook: String
    package var retrying: Int
    package var dead: Int
    /// The receiver's last answer to a failed attempt (its HTTP status), if it answered.
    package var lastStatus: Int?
    /// Why the last failed attempt failed, as the deliverer recorded it (never a URL's path or query).
    package var lastError: String?

    package init(webhook: String, retrying: Int, dead: Int, lastStatus: Int?, lastError: String?) {
        self.webhook = webhook
        self.retrying = retrying
        self.dead = dead
        self.lastStatus = lastStatus
        self.lastError = lastError
    }
}

extension FailingWebhook {
    enum CodingKeys: String, CodingKey {
        case webhook, retrying, dead
        case lastStatus = "last_status"
        case lastError = "last_error"
    }

    /// Every key, absent values as `null`, as the rest of `status --json`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(webhook, forKey: .webhook)
        try container.encode(retrying, forKey: .retrying)
        try container.encode(dead, forKey: .dead)
        try container.encode(lastStatus, forKey: .lastStatus)
        try container.encode(lastError, forKey: .lastError)
    }

    /// `team-chat (2 retrying, 1 given up; last answer HTTP 500)`.
    package var text: String {
        var counts: [String] = []
        if retrying > 0 { counts.append("\(retrying) retrying") }
        if dead > 0 { counts.append("\(dead) given up") }
        var text = "\(webhook) (" + counts.joined(separator: ", ")
        if let lastStatus {
            text += "; last answer HTTP \(lastStatus)"
        } else if let lastError {
            text += "; last error: \(lastError)"
        }
        return text + ")"
    }
}

import Foundation

/// A webhook delivery to write to the outbox before any attempt.
public struct OutboxInsert: Sendable, Hashable {
    /// Unique per (event, webhook) and the same on every retry: the `webhook-id` header. A second insert with the
    /// same id is ignored, so re-enqueueing after a crash cannot deliver twice from the outbox.
    public var deliveryID: String
    public var eventID: String
    /// The webhook's name in the configuration.
    public var webhook: String
    /// The event as the alerting code encoded it (the store does not read it). `MonitorJSON`, never `StoreCoding`:
    /// it is the webhook body as sent, the public interface, so it stays readable as it is.
    public var eventJSON: Data
    public var createdAt: Date
    /// The first attempt's time; usually `createdAt`.
    public var nextAttemptAt: Date

    public init(
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
public struct OutboxDelivery: Sendable, Hashable {
    public var id: Int64
    public var state: OutboxState
    public var deliveryID: String
    public var eventID: String
    public var webhook: String
    public var eventJSON: Data
    /// Attempts made so far (0 before the first).
    public var attempts: Int
    public var firstAttemptAt: Date?
    public var nextAttemptAt: Date
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
}

/// Outbox rows by delivery state, for `status` and metrics.
public struct OutboxCounts: Sendable, Hashable, Codable {
    /// Waiting for their first attempt.
    public var pending: Int
    /// Attempted and failed at least once, with another attempt scheduled.
    public var retrying: Int
    /// Given up on.
    public var dead: Int

    public init(pending: Int, retrying: Int, dead: Int) {
        self.pending = pending
        self.retrying = retrying
        self.dead = dead
    }
}

/// A webhook whose deliveries fail now: some wait for a retry, or the last one that ended was given up on.
public struct FailingWebhook: Sendable, Hashable, Encodable {
    /// The webhook's `name`.
    public var webhook: String
    public var retrying: Int
    public var dead: Int
    /// The receiver's last answer to a failed attempt (its HTTP status), if it answered.
    public var lastStatus: Int?
    /// Why the last failed attempt failed, as the deliverer recorded it (never a URL's path or query).
    public var lastError: String?

    public init(webhook: String, retrying: Int, dead: Int, lastStatus: Int?, lastError: String?) {
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
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(webhook, forKey: .webhook)
        try container.encode(retrying, forKey: .retrying)
        try container.encode(dead, forKey: .dead)
        try container.encode(lastStatus, forKey: .lastStatus)
        try container.encode(lastError, forKey: .lastError)
    }

    /// `team-chat (2 retrying, 1 given up; last answer HTTP 500)`.
    public var text: String {
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

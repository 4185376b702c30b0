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

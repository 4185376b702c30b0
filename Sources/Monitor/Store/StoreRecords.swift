import Foundation
import MonitorCore

/// The daemon's last sign of life, written every heartbeat period.
public struct Heartbeat: Sendable, Hashable {
    public var pid: Int32
    /// The host name the daemon runs on: `status` can only test whether the pid is alive on the same host.
    public var host: String
    public var startedAt: Date
    public var beatAt: Date
    public var version: String

    public init(pid: Int32, host: String, startedAt: Date, beatAt: Date, version: String) {
        self.pid = pid
        self.host = host
        self.startedAt = startedAt
        self.beatAt = beatAt
        self.version = version
    }
}

/// One alert's stored state: its identity and the alerting code's own JSON, opaque to the store.
public struct StoredAlertState: Sendable, Hashable {
    public var identity: FindingIdentity
    public var stateJSON: Data

    public init(identity: FindingIdentity, stateJSON: Data) {
        self.identity = identity
        self.stateJSON = stateJSON
    }
}

/// The summary columns of one stored check, newest first in `StoreReader.lastChecks`.
public struct StoredCheck: Sendable, Hashable {
    public var id: Int64
    public var domain: String
    public var checkedAt: Date
    public var durationSeconds: Double
    public var verdict: String
    public var originHash: String?
    public var cdnHash: String?
}

/// What retention removed.
public struct PruneResult: Sendable, Hashable {
    public var checks: Int
    public var timelineEvents: Int
    public var documents: Int
    public var deliveries: Int
}

/// What the alerting code returns inside a `record` transaction: the domain's complete new set of alert states
/// (identities left out are deleted) and the webhook deliveries to enqueue with them.
public typealias AlertStoreUpdate = (newAlertStates: [FindingIdentity: Data], outboxEvents: [OutboxInsert])

/// What the alerting code sees inside `MonitorStore.record`'s transaction.
public struct AlertUpdateInput {
    /// The domain's current alert states, JSON by identity.
    public var alertStates: [FindingIdentity: Data]
    /// The timeline events this check caused (`origin.changed`, `cdn.propagated`, …).
    public var timeline: [TimelineEvent]
    /// The canonical text of a stored document by hash, read in the same transaction.
    public var document: (String) throws -> String?
}

/// Called inside `MonitorStore.record`'s transaction; what it returns is written in the same transaction.
public typealias AlertUpdater = @Sendable (AlertUpdateInput) throws -> AlertStoreUpdate

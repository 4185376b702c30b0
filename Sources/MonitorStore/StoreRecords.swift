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

/// One alert's stored state: its identity and the `AlertState` as stored, which `StoreCoding.decode(_:from:legacy:)`
/// reads (compressed now; `MonitorJSON` in rows written before compression).
public struct StoredAlertState: Sendable, Hashable {
    public var identity: FindingIdentity
    public var stateJSON: Data

    public init(identity: FindingIdentity, stateJSON: Data) {
        self.identity = identity
        self.stateJSON = stateJSON
    }
}

/// One stored history run, newest first in `StoreReader.runs`.
public struct StoredRun: Sendable, Hashable {
    public var id: Int64
    public var domain: String
    public var firstSeen: Date
    public var lastSeen: Date
    /// How many consecutive checks had this outcome.
    public var checks: Int
    public var verdict: String
    public var originHash: String?
    public var cdnHash: String?
}

/// What retention removed.
public struct PruneResult: Sendable, Hashable {
    /// History runs removed.
    public var runs: Int
    public var timelineEvents: Int
    public var documents: Int
    public var deliveries: Int
}

import Foundation
import MonitorCore
import MonitorEvaluation

/// The daemon's last sign of life, written every heartbeat period.
package struct Heartbeat: Sendable, Hashable {
    package var pid: Int32
    /// The host name the daemon runs on: `status` can only test whether the pid is alive on the same host.
    package var host: String
    package var startedAt: Date
    package var beatAt: Date
    package var version: String

    package init(pid: Int32, host: String, startedAt: Date, beatAt: Date, version: String) {
        self.pid = pid
        self.host = host
        self.startedAt = startedAt
        self.beatAt = beatAt
        self.version = version
    }
}

/// One alert's stored state: its identity and the `AlertState` as stored, which `StoreCoding.decode(_:from:legacy:)`
/// reads (compressed now; `MonitorJSON` in rows written before compression).
package struct StoredAlertState: Sendable, Hashable {
    package var identity: FindingIdentity
    package var stateJSON: Data

    package init(identity: FindingIdentity, stateJSON: Data) {
        self.identity = identity
        self.stateJSON = stateJSON
    }
}

/// One stored history run, newest first in `StoreReader.runs`.
package struct StoredRun: Sendable, Hashable {
    package var id: Int64
    package var domain: String
    package var firstSeen: Date
    package var lastSeen: Date
    /// How many consecutive checks had this outcome.
    package var checks: Int
    package var verdict: String
    package var originHash: String?
    package var cdnHash: String?
}

/// What retention removed.
package struct PruneResult: Sendable, Hashable {
    /// History runs removed.
    package var runs: Int
    package var timelineEvents: Int
    package var documents: Int
    package var deliveries: Int
}

import Foundation
import MonitorCore

/// Rows of a cluster's shared history, as a node copies them into its own state directory (`MonitorStore.mirror`)
/// so that its status, pages, API and badges show the whole fleet with the readers of a daemon of its own.
package struct ClusterChanges: Sendable {
    package var domains: [MirroredDomain] = []
    package var runs: [MirroredRun] = []
    package var documents: [MirroredDocument] = []
    package var timeline: [MirroredTimelineEvent] = []
    /// Every stored silence, ended or not (they are few): the copy replaces the node's own.
    package var silences: [Silence] = []
    /// Where the next read starts.
    package var next: ChangeCursor
    /// A table gave as many rows as asked: read again at once.
    package var full = false

    package init(next: ChangeCursor) {
        self.next = next
    }
}

/// Where a node's copy of the cluster's history stands: the last settled change number per table.
package struct ChangeCursor: Sendable, Hashable {
    package var domains: Int64 = 0
    package var runs: Int64 = 0
    package var documents: Int64 = 0
    package var timeline: Int64 = 0

    package init() {}
}

/// A domain's row: its entry (`BookEntry`, coded as `StoreCoding` codes it) and its open run's figures.
package struct MirroredDomain: Sendable {
    package var domain: String
    package var entry: Data
    package var runLastSeen: Date?
    package var runChecks: Int?

    package init(domain: String, entry: Data, runLastSeen: Date?, runChecks: Int?) {
        self.domain = domain
        self.entry = entry
        self.runLastSeen = runLastSeen
        self.runChecks = runChecks
    }
}

/// A history run as the cluster stored it (its report coded as `StoreCoding` codes it).
package struct MirroredRun: Sendable {
    package var id: Int64
    package var domain: String
    package var firstSeen: Date
    package var lastSeen: Date
    package var checks: Int
    package var verdict: String
    package var originHash: String?
    package var cdnHash: String?
    package var key: String
    package var report: Data
    package var opensHistory: Bool

    package init(
        id: Int64, domain: String, firstSeen: Date, lastSeen: Date, checks: Int, verdict: String, originHash: String?,
        cdnHash: String?, key: String, report: Data, opensHistory: Bool
    ) {
        self.id = id
        self.domain = domain
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.checks = checks
        self.verdict = verdict
        self.originHash = originHash
        self.cdnHash = cdnHash
        self.key = key
        self.report = report
        self.opensHistory = opensHistory
    }
}

package struct MirroredDocument: Sendable {
    package var hash: String
    package var text: String
    package var firstSeen: Date
    package var lastSeen: Date

    package init(hash: String, text: String, firstSeen: Date, lastSeen: Date) {
        self.hash = hash
        self.text = text
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}

package struct MirroredTimelineEvent: Sendable {
    package var id: Int64
    package var domain: String
    package var at: Date
    package var kind: String
    package var detail: Data

    package init(id: Int64, domain: String, at: Date, kind: String, detail: Data) {
        self.id = id
        self.domain = domain
        self.at = at
        self.kind = kind
        self.detail = detail
    }
}

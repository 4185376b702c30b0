import Foundation
import MonitorCore

/// Rows of a cluster's shared history, as a node copies them into its own state directory (`MonitorStore.mirror`)
/// so that its status, pages, API and badges show the whole fleet with the readers of a daemon of its own.
package struct ClusterChanges: Sendable {
    package var domains: [MirroredDomain] = []
    package var runs: [MirroredRun] = []
    package var documents: [MirroredDocument] = []
    package var timeline: [MirroredTimelineEvent] = []
    /// Every stored silence, ended or not (they are few): the copy replaces the node's own; `nil` leaves it.
    package var silences: [Silence]? = []

    /// Nothing to write.
    package var isEmpty: Bool {
        domains.isEmpty && runs.isEmpty && documents.isEmpty && timeline.isEmpty && silences == nil
    }
    /// Where the next read starts.
    package var next: ChangeCursor
    /// A table gave as many rows as asked: read again at once.
    package var full = false

    /// These changes without the rows already copied (`seen`: read again because they are newer than the cursor,
    /// not written again), and `seen` with the kept rows added and those the cursor has passed removed.
    package func unseen(_ seen: SeenChanges) -> (changes: ClusterChanges, seen: SeenChanges) {
        var copy = self
        copy.domains = domains.filter { !seen.domains.contains($0.changed) }
        copy.runs = runs.filter { !seen.runs.contains($0.changed) }
        copy.documents = documents.filter { !seen.documents.contains($0.changed) }
        copy.timeline = timeline.filter { !seen.timeline.contains($0.changed) }
        var now = SeenChanges()
        now.domains = seen.domains.union(copy.domains.map(\.changed)).filter { $0 > next.domains }
        now.runs = seen.runs.union(copy.runs.map(\.changed)).filter { $0 > next.runs }
        now.documents = seen.documents.union(copy.documents.map(\.changed)).filter { $0 > next.documents }
        now.timeline = seen.timeline.union(copy.timeline.map(\.changed)).filter { $0 > next.timeline }
        return (copy, now)
    }

    package init(next: ChangeCursor) {
        self.next = next
    }
}

/// The change numbers above the cursor a node has copied, per table.
package struct SeenChanges: Sendable {
    package var domains: Set<Int64> = []
    package var runs: Set<Int64> = []
    package var documents: Set<Int64> = []
    package var timeline: Set<Int64> = []

    package init() {}
}

/// Where a node's copy of the cluster's history stands: the last settled change number per table.
package struct ChangeCursor: Sendable, Hashable {
    package var domains: Int64 = 0
    package var runs: Int64 = 0
    package var documents: Int64 = 0
    package var timeline: Int64 = 0

    package init() {}
}

/// A domain's row: its state and alert states coded as `StoreCoding` codes them (copied as they are), its open
/// run's figures; or, in a row written by the cluster's first schema, its whole entry (`BookEntry`).
package struct MirroredDomain: Sendable {
    package enum Stored: Sendable {
        case columns(state: Data, alerts: Data?, originHash: String?, cdnHash: String?, runID: Int64?)
        case entry(Data)
    }

    /// Its number in the cluster's `changes` sequence.
    package var changed: Int64 = 0
    package var domain: String
    package var stored: Stored
    package var runLastSeen: Date?
    package var runChecks: Int?

    package init(domain: String, stored: Stored, runLastSeen: Date?, runChecks: Int?) {
        self.domain = domain
        self.stored = stored
        self.runLastSeen = runLastSeen
        self.runChecks = runChecks
    }
}

/// A history run as the cluster stored it (its report coded as `StoreCoding` codes it).
package struct MirroredRun: Sendable {
    /// Its number in the cluster's `changes` sequence.
    package var changed: Int64 = 0
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
    /// Its number in the cluster's `changes` sequence.
    package var changed: Int64 = 0
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
    /// Its number in the cluster's `changes` sequence.
    package var changed: Int64 = 0
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

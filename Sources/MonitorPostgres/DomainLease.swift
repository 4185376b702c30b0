import Foundation
import MonitorCore

/// A node's right to check one domain now: held while `epoch` is the domain's and the node is its owner.
package struct DomainLease: Sendable, Hashable {
    package var domain: String
    /// Raised by every claim: a result is written only under the epoch it was claimed with (the fence).
    package var epoch: Int64
    /// When the domain came due, by the database's clock (for lateness figures).
    package var due: Date
    /// The domain's book entry as the last committed check left it, in its columns (`EntryColumns`).
    var stored: StoredEntry

    /// The entry; `nil` before the first check.
    package func entry() throws -> BookEntry? { try stored.entry() }
}

/// The columns of a domain's row that hold its book entry, as read.
struct StoredEntry: Sendable, Hashable {
    var state: Data?
    var alerts: Data?
    var runID: Int64?
    var runKey: String?
    /// The whole entry, in rows written by the first schema.
    var legacy: Data?

    func entry() throws -> BookEntry? {
        try EntryColumns.entry(state: state, alerts: alerts, runID: runID, runKey: runKey, legacy: legacy)
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
import NIOCore

/// A domain's book entry as the cluster's `domains` row keeps it: its state and alert states coded as SQLite's own
/// columns code them (`StoreCoding`), its run as id and key. A node copies the state into its own database as it
/// is, without decoding it (`ClusterMirror`), and decodes alert states only for the few domains that have any.
/// (The whole entry as one value cost every node a decode and an encode per check: about a third of the copy's
/// CPU at 100,000 domains.) Rows written by the first schema keep their `entry` and are read from it.
struct EntryColumns {
    var state: ByteBuffer
    /// Empty for none (postgres-nio sends no `NULL` inside an array).
    var alerts: ByteBuffer
    var runKey: String
    /// `''` for none.
    var originHash: String
    var cdnHash: String

    init(_ outcome: LedgerOutcome, run: RunMark) throws {
        state = try StoreCoding.encode(outcome.state).bytea
        alerts = outcome.alerts.isEmpty ? ByteBuffer() : try StoreCoding.encode(outcome.alerts).bytea
        runKey = run.key
        originHash = outcome.state.originHash ?? ""
        cdnHash = outcome.state.cdnHash ?? ""
    }

    /// The entry a row holds; `nil` before its first check.
    static func entry(
        state: Data?, alerts: Data?, runID: Int64?, runKey: String?, legacy: Data?
    ) throws -> BookEntry? {
        guard let state else { return try legacy.map { try StoreCoding.decode(BookEntry.self, from: $0) } }
        return BookEntry(
            state: try StoreCoding.decode(DomainState.self, from: state),
            alerts: try alerts.map { try StoreCoding.decode([FindingIdentity: AlertState].self, from: $0) } ?? [:],
            run: runID.flatMap { id in runKey.map { RunMark(id: id, key: $0) } })
    }
}

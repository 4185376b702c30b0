import Foundation
import Logging
import MonitorCore
import MonitorPostgres
import MonitorStore
import ServiceLifecycle

/// A cluster node's copy of the whole fleet's history in its own state directory (`store: postgres:`).
///
/// The readers of `status`, the pages, the API and the badges are queries on the SQLite schema; rather than a
/// second set of them for PostgreSQL, each node copies what any node committed (`PostgresStore.changes`) into its
/// own database every `period`, so they show every domain with the code a daemon of its own uses. A node's view
/// lags the cluster by at most about `period`.
struct ClusterMirror: Service {
    let cluster: PostgresStore
    let store: MonitorStore
    let logger: Logger
    var period: Duration = .seconds(2)
    /// Rows read per table and pass: at 100,000 domains the first pass copies the fleet in 50 passes.
    var pageSize = 2_000

    func run() async throws {
        var cursor = ChangeCursor()
        /// Change numbers above the cursor already copied: read again until they settle, not written again.
        var seen = SeenChanges()
        /// The silences last copied: the same list is not written again every period.
        var silences: [Silence]?
        var failing = false
        while !Task.isCancelledOrShuttingDown {
            do {
                let changes = try await cluster.changes(after: cursor, seen: seen, limit: pageSize)
                var (unseen, copied) = changes.unseen(seen)
                if unseen.silences == silences { unseen.silences = nil } else { silences = unseen.silences }
                for domain in try await store.mirror(unseen) {
                    logger.error(
                        "a domain's stored state in the cluster's database could not be read; this node shows its last copy",
                        metadata: ["domain": "\(domain)"])
                }
                cursor = changes.next
                seen = copied
                if failing {
                    logger.notice("the cluster's history is copied again")
                    failing = false
                }
                if changes.full { continue }
            } catch {
                if !failing {
                    logger.warning(
                        "the cluster's history could not be copied into this node's state; status and the pages show it as last copied",
                        metadata: ["error": "\(error)"])
                    failing = true
                }
            }
            try? await Task.sleep(for: failing ? period * 5 : period)
        }
    }
}

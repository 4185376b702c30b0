import Foundation
import PostgresNIO

/// A node of the cluster as its liveness row says: for `status` and the "node gone" condition, never for safety.
package struct ClusterMember: Sendable, Hashable {
    package var name: String
    package var startedAt: Date
    package var seenAt: Date
    /// Seconds since it was last seen, by the database's clock.
    package var silentFor: Double
}

extension PostgresStore {
    /// Says this node is alive now (database time); the first call of a process also sets its start.
    package func beat(startedAt: Date) async throws(PostgresStoreError) {
        let node = self.node
        _ = try await rows(
            "refreshing this node's liveness",
            """
            INSERT INTO nodes (name, started_at, seen_at) VALUES (\(node), \(startedAt), now())
            ON CONFLICT (name) DO UPDATE SET seen_at = now(), started_at = excluded.started_at
            """)
    }

    /// Every node that ever beat, with how long each has been silent.
    package func members() async throws(PostgresStoreError) -> [ClusterMember] {
        let rows = try await rows(
            "reading the cluster's members",
            """
            SELECT name, started_at, seen_at, extract(epoch FROM now() - seen_at)::float8
            FROM nodes ORDER BY name
            """)
        do {
            return try rows.map { row in
                let (name, started, seen, silent) = try row.decode((String, Date, Date, Double).self)
                return ClusterMember(name: name, startedAt: started, seenAt: seen, silentFor: silent)
            }
        } catch {
            throw .describing(error, while: "reading the cluster's members")
        }
    }
}

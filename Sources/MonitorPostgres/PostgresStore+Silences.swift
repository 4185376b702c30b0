import Foundation
import MonitorCore
import PostgresNIO

/// Silences are rows of the shared database: one added on any node holds on every node.
extension PostgresStore {
    package func add(_ silence: Silence) async throws(PostgresStoreError) {
        let body: Data
        do { body = try JSONEncoder().encode(silence) } catch {
            throw .server("storing a silence", message: "it could not be encoded", sqlState: "-")
        }
        _ = try await rows(
            "adding a silence",
            """
            INSERT INTO silences (id, starts_at, ends_at, body)
            VALUES (\(silence.id), \(silence.startsAt), \(silence.endsAt), \(body.bytea))
            ON CONFLICT (id) DO UPDATE SET ends_at = excluded.ends_at, body = excluded.body
            """)
    }

    /// The silences not yet ended at `now`, soonest start first.
    package func silences(at now: Date) async throws(PostgresStoreError) -> [Silence] {
        let rows = try await rows(
            "reading silences", "SELECT body FROM silences WHERE ends_at > \(now) ORDER BY starts_at, id")
        do {
            return try rows.map { try JSONDecoder().decode(Silence.self, from: try $0.decode(Data.self)) }
        } catch {
            throw .describing(error, while: "reading silences")
        }
    }
}

import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
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

/// `silence add` and `silence expire` on a cluster: ids are numbers, as on SQLite, so `silence expire ID` reads the
/// same on both stores.
extension PostgresStore: SilenceWriting {
    package func addSilence(
        domains: [String]?, code: FindingCode?, from start: Date, until end: Date, author: String, reason: String,
        at now: Date
    ) async throws -> Silence {
        let ids = try await rows("numbering a silence", "SELECT nextval('changes')")
        let id = try ids.first?.decode(Int64.self) ?? 0
        let silence = Silence(
            id: String(id), domains: domains, code: code, startsAt: start, endsAt: end, author: author, reason: reason)
        try await add(silence)
        return silence
    }

    package func expireSilence(id: Int64, by author: String, at now: Date) async throws -> Silence? {
        let rows = try await rows("reading a silence", "SELECT body FROM silences WHERE id = \(String(id))")
        guard let body = try rows.first?.decode(Data.self) else { return nil }
        var silence = try JSONDecoder().decode(Silence.self, from: body)
        guard silence.endsAt > now else { return silence }
        silence.endsAt = max(now, silence.startsAt)
        try await add(silence)
        return silence
    }
}

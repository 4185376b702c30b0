import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// Silences as rows of the state database: `silence add` and `silence expire` write them, with the daemon running
/// or stopped, and every check reads the ones covering its domain in its own transaction.
///
/// The daemon neither polls the table nor watches the file: each check's transaction reads the silences not yet
/// ended (an indexed range over a table of a few rows), so a silence added or expired by another process counts
/// from each domain's next check, and a daemon started later finds it there.
extension MonitorStore {
    /// Adds a silence and returns it with its id.
    package func addSilence(
        domains: [String]?, code: FindingCode?, from start: Date, until end: Date, author: String, reason: String,
        at now: Date
    ) async throws -> Silence {
        let domainsJSON = try domains.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        return try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO silences (domains_json, code, starts_at, ends_at, author, reason, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    domainsJSON, code?.id, StoredInstant(start), StoredInstant(end), author, reason,
                    StoredInstant(now),
                ])
            return Silence(
                id: String(db.lastInsertedRowID), domains: domains, code: code, startsAt: start, endsAt: end,
                author: author, reason: reason)
        }
    }

    /// Ends the silence `id` at `now` (it keeps its row, author and reason); returns it, or `nil` when there is no
    /// such silence. A silence already over is returned unchanged.
    package func expireSilence(id: Int64, by author: String, at now: Date) async throws -> Silence? {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE silences SET ends_at = max(?1, starts_at), expired_by = ?2 WHERE id = ?3 AND ends_at > ?1
                    """,
                arguments: [StoredInstant(now), author, id])
            return try Row.fetchOne(db, sql: "SELECT * FROM silences WHERE id = ?", arguments: [id])
                .map(StoreReader.silence)
        }
    }
}

extension StoreReader {
    /// Silences that have not ended at `now` and those that ended within `endedWithin` seconds before it, by id.
    /// A database written before silences existed has none.
    package func silences(at now: Date, endedWithin: TimeInterval = 0) async throws -> [Silence] {
        try await database.read { db in
            guard try db.tableExists("silences") else { return [] }
            return try Row.fetchAll(
                db, sql: "SELECT * FROM silences WHERE ends_at > ? ORDER BY id",
                arguments: [StoredInstant(now.addingTimeInterval(-endedWithin))]
            ).map(Self.silence)
        }
    }

    static func silence(_ row: Row) -> Silence {
        let domainsJSON: String? = row["domains_json"]
        let domains = domainsJSON.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        let id: Int64 = row["id"]
        let code: String? = row["code"]
        return Silence(
            id: String(id), domains: domainsJSON == nil ? nil : (domains ?? []),
            code: code.map(FindingCode.init(storedID:)),
            startsAt: row.date("starts_at"), endsAt: row.date("ends_at"), author: row["author"], reason: row["reason"])
    }
}

import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// Reads the state database: what `status` and `history` show, also while the daemon writes.
///
/// `openReadOnly(directory:)` never migrates and never writes; `MonitorStore.reader` reads through the daemon's
/// own connection pool.
package final class StoreReader: Sendable {
    let database: any DatabaseReader
    /// The database file, for error messages (`:memory:` for in-memory stores).
    package let path: String

    init(database: any DatabaseReader, path: String) {
        self.database = database
        self.path = path
    }

    /// Opens `aasa-monitor.sqlite` in `directory` read-only, waiting up to `busyTimeout` for a busy writer.
    ///
    /// - Throws: `StoreError` `.missing` when there is no database, `.newerSchema`/`.olderSchema` when its
    ///   migrations are not exactly the ones this version knows; GRDB's `DatabaseError` when it cannot be read.
    package static func openReadOnly(directory: String, busyTimeout: TimeInterval = 5) throws -> StoreReader {
        let path = (directory as NSString).appendingPathComponent(StoreSchema.fileName)
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError(.missing, path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { db in
            let migrator = StoreSchema.migrator
            if try migrator.hasBeenSuperseded(db) { throw StoreError(.newerSchema, path: path) }
            if try !migrator.hasCompletedMigrations(db) { throw StoreError(.olderSchema, path: path) }
        }
        return StoreReader(database: queue, path: path)
    }

    /// The current state of every domain (or of the named ones), sorted by domain. A few names (up to `keyedReads`)
    /// are read by key, so `status DOMAIN` and the API's domain answer do not decode a fleet of 100,000.
    package func domainStates(domains: [String]? = nil) async throws -> [DomainState] {
        if let domains, domains.count <= Self.keyedReads {
            return try await domainStates(named: domains).values.sorted { $0.domain < $1.domain }
        }
        let path = path
        // A set, so that filtering by the configured domains stays linear (an array made `status` quadratic).
        let wanted = domains.map(Set.init)
        return try await database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT domain, state_json FROM domain_state ORDER BY domain")
            return try rows.compactMap { row -> DomainState? in
                let domain: String = row["domain"]
                if let wanted, !wanted.contains(domain) { return nil }
                return try Self.decode(DomainState.self, row["state_json"], what: "state of \(domain)", path: path)
            }
        }
    }

    /// The newest `limit` timeline events of `domain`, oldest first: its timeline rows, and the first events its
    /// opening run stands for (`FirstRunEvents`); a firing a silence held carries when it was sent (`HeldAlerts`).
    package func history(domain: String, limit: Int = 1000) async throws -> [TimelineEvent] {
        let path = path
        return try await database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT at, kind, detail_json FROM timeline WHERE domain = ? ORDER BY at DESC, id DESC LIMIT ?
                    """,
                arguments: [domain, limit])
            let stored = try rows.reversed().map { row in
                let kindText: String = row["kind"]
                guard let kind = TimelineEvent.Kind(rawValue: kindText) else {
                    throw StoreError(.corruptValue("timeline kind \(kindText) of \(domain)"), path: path)
                }
                let detail = try Self.decode(
                    FindingDetail.self, row["detail_json"], what: "timeline detail of \(domain)", path: path)
                return TimelineEvent(at: row.date("at"), kind: kind, detail: detail)
            }
            let opening = try Row.fetchAll(
                db,
                sql: """
                    SELECT first_seen, verdict, origin_hash, report_json FROM runs WHERE domain = ? AND opens_history
                    """,
                arguments: [domain]
            ).map { row in
                let verdictText: String = row["verdict"]
                guard let verdict = Verdict(rawValue: verdictText) else {
                    throw StoreError(.corruptValue("run verdict \(verdictText) of \(domain)"), path: path)
                }
                // The first check's report says why its verdict is what it is; a report this version cannot
                // read only loses the reason, not the history.
                let report = (row["report_json"] as Data?).flatMap {
                    try? StoreCoding.decode(DomainReport.self, from: $0)
                }
                return (
                    firstSeen: row.date("first_seen"), verdict: verdict,
                    originHash: StoredHex.documentHash.text(row["origin_hash"]),
                    because: report.map { VerdictReasons.codes(for: verdict, findings: $0.findings) } ?? []
                )
            }
            return HeldAlerts.folded(
                FirstRunEvents.merged(stored: stored, openingRunsWithReasons: opening, limit: limit))
        }
    }

    /// The newest `limit` history runs of `domain`, newest first.
    package func runs(domain: String, limit: Int = 10) async throws -> [StoredRun] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash FROM run_spans
                    WHERE domain = ? ORDER BY first_seen DESC, id DESC LIMIT ?
                    """,
                arguments: [domain, limit]
            ).map { row in
                StoredRun(
                    id: row["id"], domain: row["domain"], firstSeen: row.date("first_seen"),
                    lastSeen: row.date("last_seen"),
                    checks: row["checks"], verdict: row["verdict"],
                    originHash: StoredHex.documentHash.text(row["origin_hash"]),
                    cdnHash: StoredHex.documentHash.text(row["cdn_hash"]))
            }
        }
    }

    /// The report stored with run `id` (its first check), `nil` when retention removed it.
    package func runReport(id: Int64) async throws -> DomainReport? {
        let path = path
        return try await database.read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT report_json FROM runs WHERE id = ?", arguments: [id])
            else { return nil }
            return try Self.decode(DomainReport.self, data, what: "report of run \(id)", path: path)
        }
    }

    /// The canonical text of the document with `hash`, if the store still keeps it.
    package func document(hash: String) async throws -> String? {
        try await database.read { db in
            try String.fetchOne(
                db, sql: "SELECT canonical_text FROM documents WHERE hash = ?",
                arguments: [StoredHex.documentHash.value(hash)])
        }
    }

    /// The daemon's last heartbeat, `nil` when it never ran.
    package func heartbeat() async throws -> Heartbeat? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT pid, host, started_at, beat_at, version FROM heartbeat WHERE id = 1")
                .map { row in
                    Heartbeat(
                        pid: row["pid"], host: row["host"], startedAt: row.date("started_at"),
                        beatAt: row.date("beat_at"),
                        version: row["version"])
                }
        }
    }

    /// The stored alert states of `domain` (or of every domain), sorted by identity.
    package func alertStates(domain: String? = nil) async throws -> [StoredAlertState] {
        try await database.read { db in try Self.alertStates(db, domain: domain) }
    }

    /// Outbox rows by delivery state.
    /// When the next waiting delivery is due, or `nil` when none waits.
    package func nextAttemptTime() async throws -> Date? {
        try await database.read { db in
            try StoredInstant.fetchOne(
                db, sql: "SELECT min(next_attempt_at) FROM outbox WHERE state = ?", arguments: [OutboxState.pending]
            )?.date
        }
    }

    package func outboxCounts() async throws -> OutboxCounts {
        try await database.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                      COUNT(*) FILTER (WHERE state = :pending AND attempts = 0) AS pending,
                      COUNT(*) FILTER (WHERE state = :pending AND attempts > 0) AS retrying,
                      COUNT(*) FILTER (WHERE state = :dead) AS dead
                    FROM outbox
                    """,
                arguments: ["pending": OutboxState.pending, "dead": OutboxState.dead])
            return OutboxCounts(pending: row?["pending"] ?? 0, retrying: row?["retrying"] ?? 0, dead: row?["dead"] ?? 0)
        }
    }

    /// Webhooks whose deliveries fail now, by name: those with a delivery waiting for a retry, and those whose
    /// newest finished delivery was given up on (one dead long ago, with deliveries since, is not failing).
    package func failingWebhooks() async throws -> [FailingWebhook] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT webhook,
                      COUNT(*) FILTER (WHERE state = :pending AND attempts > 0) AS retrying,
                      COUNT(*) FILTER (WHERE state = :dead) AS dead,
                      MAX(CASE WHEN state = :dead THEN finished_at END) AS last_dead,
                      (SELECT MAX(delivered_at) FROM outbox AS sent
                        WHERE sent.webhook = failed.webhook AND sent.state = :delivered) AS last_delivered,
                      (SELECT last_status FROM outbox AS newest
                        WHERE newest.webhook = failed.webhook AND newest.attempts > 0
                          AND newest.state IN (:dead, :pending)
                        ORDER BY newest.id DESC LIMIT 1) AS last_status,
                      (SELECT last_error FROM outbox AS newest
                        WHERE newest.webhook = failed.webhook AND newest.attempts > 0
                          AND newest.state IN (:dead, :pending)
                        ORDER BY newest.id DESC LIMIT 1) AS last_error
                    FROM outbox AS failed
                    WHERE state = :dead OR (state = :pending AND attempts > 0)
                    GROUP BY webhook ORDER BY webhook
                    """,
                arguments: [
                    "pending": OutboxState.pending, "dead": OutboxState.dead, "delivered": OutboxState.delivered,
                ]
            ).compactMap { row in
                let retrying: Int = row["retrying"]
                let lastDead: StoredInstant? = row["last_dead"]
                let lastDelivered: StoredInstant? = row["last_delivered"]
                let deadIsNewest = lastDead.map { dead in lastDelivered.map { dead > $0 } ?? true } ?? false
                guard retrying > 0 || deadIsNewest else { return nil }
                return FailingWebhook(
                    webhook: row["webhook"], retrying: retrying, dead: row["dead"], lastStatus: row["last_status"],
                    lastError: row["last_error"])
            }
        }
    }

    /// How many rows `table` holds.
    package func rowCount(table: StoreTable) async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.rawValue)") ?? 0 }
    }

    /// SQLite's own consistency check: `["ok"]` for a sound file.
    package func integrityCheck() async throws -> [String] {
        try await database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// One domain's alert states through its key (the recording of every check reads them), or every domain's.
    static func alertStates(_ db: Database, domain: String?) throws -> [StoredAlertState] {
        let columns = "SELECT domain, code, source, subject, state_json FROM alert_state"
        let rows =
            try domain.map { domain in
                try Row.fetchAll(
                    db.cachedStatement(sql: columns + " WHERE domain = ? ORDER BY code, source, subject"),
                    arguments: [domain])
            } ?? Row.fetchAll(db.cachedStatement(sql: columns + " ORDER BY domain, code, source, subject"))
        return rows.compactMap(storedAlertState)
    }

    /// The alert states of the domains named in `domainsJSON` (a JSON array, `jsonArray`), sorted by identity.
    static func alertStates(_ db: Database, domainsJSON: String) throws -> [StoredAlertState] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT domain, code, source, subject, state_json FROM alert_state
                WHERE domain IN (SELECT value FROM json_each(?)) ORDER BY domain, code, source, subject
                """,
            arguments: [domainsJSON]
        ).compactMap(storedAlertState)
    }

    /// A row of `alert_state`; `nil` for a source this version does not know (it cannot be one of its alerts: skipped
    /// rather than failing `status`).
    private static func storedAlertState(_ row: Row) -> StoredAlertState? {
        guard let source = FindingSource(rawValue: row["source"]) else { return nil }
        let identity = FindingIdentity(
            domain: row["domain"], code: FindingCode(storedID: row["code"]), source: source, subject: row["subject"])
        return StoredAlertState(identity: identity, stateJSON: row["state_json"])
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, what: String, path: String) throws -> Value {
        do {
            return try StoreCoding.decode(type, from: data)
        } catch {
            throw StoreError(.corruptValue("\(what): \(error)"), path: path)
        }
    }
}

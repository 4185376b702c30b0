import Foundation
import GRDB
import Monitor
import Testing

/// A database written by the version that kept one row per check is converted to runs when the daemon opens it.
@Suite("Store migration")
struct StoreMigrationTests {
    /// The tables of schema v1 that the runs migration reads or changes, as v1 created them.
    static let version1 = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations VALUES ('v1');
        CREATE TABLE documents (hash TEXT PRIMARY KEY, canonical_text TEXT NOT NULL, first_seen DATETIME NOT NULL,
          last_seen DATETIME NOT NULL);
        CREATE TABLE checks (id INTEGER PRIMARY KEY AUTOINCREMENT, domain TEXT NOT NULL, checked_at DATETIME NOT NULL,
          duration DOUBLE NOT NULL, verdict TEXT NOT NULL, origin_hash TEXT, cdn_hash TEXT, report_json BLOB NOT NULL);
        CREATE TABLE findings (check_id INTEGER NOT NULL REFERENCES checks(id) ON DELETE CASCADE, code TEXT NOT NULL,
          severity TEXT NOT NULL, source TEXT NOT NULL, subject TEXT NOT NULL, message TEXT NOT NULL,
          detail_json BLOB NOT NULL);
        CREATE TABLE timeline (id INTEGER PRIMARY KEY AUTOINCREMENT, domain TEXT NOT NULL, at DATETIME NOT NULL,
          kind TEXT NOT NULL, detail_json BLOB NOT NULL);
        CREATE TABLE domain_state (domain TEXT PRIMARY KEY, state_json BLOB NOT NULL, origin_hash TEXT, cdn_hash TEXT,
          updated_at DATETIME NOT NULL);
        CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL,
          started_at DATETIME NOT NULL, beat_at DATETIME NOT NULL, version TEXT NOT NULL);
        CREATE TABLE alert_state (domain TEXT NOT NULL, code TEXT NOT NULL, source TEXT NOT NULL,
          subject TEXT NOT NULL, state_json BLOB NOT NULL, PRIMARY KEY (domain, code, source, subject));
        CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, delivery_id TEXT NOT NULL UNIQUE,
          event_id TEXT NOT NULL, webhook TEXT NOT NULL, event_json BLOB NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
          attempts INTEGER NOT NULL DEFAULT 0, first_attempt_at DATETIME, next_attempt_at DATETIME NOT NULL,
          last_status INTEGER, last_error TEXT, created_at DATETIME NOT NULL, delivered_at DATETIME,
          finished_at DATETIME);
        """

    /// A new temporary directory holding a schema-v1 database filled by `fill`; the caller removes it.
    static func version1Directory(_ fill: @escaping @Sendable (Database) throws -> Void) async throws -> String {
        let directory = try makeTemporaryDirectory()
        let old = try DatabaseQueue(path: (directory as NSString).appendingPathComponent("aasa-monitor.sqlite"))
        try await old.write { db in
            try db.execute(sql: version1)
            try fill(db)
        }
        try old.close()
        return directory
    }

    /// v1 wrote `report_json` as plain JSON (`StoreCoding` before compression); the converted runs keep those rows.
    @Test("consecutive checks with one outcome become one run; the next check after the upgrade starts a new one")
    func checksBecomeRuns() async throws {
        let directory = try await Self.version1Directory { db in
            let checks: [(Double, String, String?)] = [
                (0, "ready", "sha256:a"), (1, "ready", "sha256:a"), (2, "ready", "sha256:a"),
                (3, "cdn_stale", "sha256:b"), (4, "cdn_stale", "sha256:b"),
            ]
            for (minute, verdict, origin) in checks {
                let report = StoreReports.report(
                    at: minute, origin: origin, cdn: "sha256:a", verdict: verdict == "ready" ? .ready : .cdnStale)
                try db.execute(
                    sql: """
                        INSERT INTO checks (domain, checked_at, duration, verdict, origin_hash, cdn_hash, report_json)
                        VALUES ('example.com', ?, 0.25, ?, ?, 'sha256:a', ?)
                        """,
                    arguments: [StoreReports.at(minute), verdict, origin, try StoreReports.plainJSON(report)])
            }
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let store = try await MonitorStore.open(directory: directory)
        let runs = try await store.reader.runs(domain: "example.com")
        #expect(runs.map(\.checks) == [2, 3])
        #expect(runs.map(\.verdict) == ["cdn_stale", "ready"])
        #expect(runs.last?.firstSeen == StoreReports.at(0))
        #expect(runs.last?.lastSeen == StoreReports.at(2))
        let first = try #require(runs.last)
        let converted = try #require(try await store.reader.runReport(id: first.id))
        #expect(converted.checkedAt == StoreReports.at(0))
        #expect(converted.origin.wellKnown.canonicalHash == "sha256:a")
        #expect(try await store.reader.integrityCheck() == ["ok"])
        try store.close()
    }
}

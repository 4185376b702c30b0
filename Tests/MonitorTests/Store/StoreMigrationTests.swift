import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// A database written by the version that kept one row per check is converted to runs when the daemon opens it.
///
/// Which migrations a released package needs: every one. 0.2.0, the only release, carried that version from the
/// first schema (v1, 2026-11-21) through `v5-silences` (2026-11-26), and `build-deb` packaged it from 2026-11-23 on,
/// so a 0.2.0 installation may hold a database at any of v1–v5. v1–v5 are therefore kept as registered (never
/// edited or squashed), and these tests start from v1, the oldest such database, and run every migration through
/// `v6-millisecond-dates`.
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

    /// v1's times with a millisecond fraction, as 0.2.0 wrote them (GRDB's text, UTC).
    static func instant(_ minutes: Double, _ milliseconds: Double) -> Date {
        StoreReports.at(minutes).addingTimeInterval(milliseconds / 1000)
    }

    /// `date` in whole milliseconds since 1970: what the store keeps of it.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Every column the schema declares DATETIME (all times, whatever migration added them) and the storage types its
    /// values have.
    static func timeColumnTypes(_ db: Database) throws -> [String: Set<String>] {
        var types: [String: Set<String>] = [:]
        let columns = try Row.fetchAll(
            db,
            sql: """
                SELECT tables.name AS tableName, columns.name AS columnName FROM sqlite_master AS tables
                JOIN pragma_table_info(tables.name) AS columns
                WHERE tables.type = 'table' AND columns.type = 'DATETIME'
                """)
        for column in columns {
            let table: String = column["tableName"]
            let name: String = column["columnName"]
            types["\(table).\(name)"] = Set(
                try String.fetchAll(
                    db, sql: "SELECT DISTINCT typeof(\(name)) FROM \(table) WHERE \(name) IS NOT NULL"))
        }
        return types
    }

    @Test("an upgrade from 0.2.0's first schema keeps every dated row to the millisecond, as integers")
    func upgradeKeepsInstants() async throws {
        let checks = [Self.instant(0, 614), Self.instant(1, 1), Self.instant(2, 999)]
        let event = Self.instant(0, 614)
        let (started, beat) = (Self.instant(-5, 250), Self.instant(2, 500))
        let (created, firstAttempt, delivered) = (Self.instant(0, 614), Self.instant(0, 700), Self.instant(0, 901))
        let directory = try await Self.version1Directory { db in
            for checkedAt in checks {
                let report = StoreReports.report(at: 0, origin: "sha256:a", cdn: "sha256:a")
                try db.execute(
                    sql: """
                        INSERT INTO checks (domain, checked_at, duration, verdict, origin_hash, cdn_hash, report_json)
                        VALUES ('example.com', ?, 0.25, 'ready', 'sha256:a', 'sha256:a', ?)
                        """,
                    arguments: [checkedAt, try StoreReports.plainJSON(report)])
            }
            try db.execute(
                sql: "INSERT INTO documents VALUES ('sha256:a', '{}', ?, ?)", arguments: [checks[0], checks[2]])
            try db.execute(
                sql: """
                    INSERT INTO timeline (domain, at, kind, detail_json)
                    VALUES ('example.com', ?, 'origin.first_seen', '{"hash":"sha256:a"}')
                    """,
                arguments: [event])
            try db.execute(
                sql: "INSERT INTO heartbeat VALUES (1, 42, 'monitor-1', ?, ?, '0.2.0')", arguments: [started, beat])
            try db.execute(
                sql: """
                    INSERT INTO outbox (delivery_id, event_id, webhook, event_json, state, attempts, first_attempt_at,
                      next_attempt_at, created_at, delivered_at, finished_at)
                    VALUES ('dlv_1', 'evt_1', 'ops', '{}', 'delivered', 1, ?1, ?2, ?2, ?3, ?3),
                      ('dlv_2', 'evt_2', 'ops', '{}', 'pending', 0, NULL, ?2, ?2, NULL, NULL)
                    """,
                arguments: [firstAttempt, created, delivered])
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("aasa-monitor.sqlite")

        let store = try await MonitorStore.open(directory: directory)
        defer { try? store.close() }
        let run = try #require(try await store.reader.runs(domain: "example.com").first)
        #expect(Self.milliseconds(run.firstSeen) == Self.milliseconds(checks[0]))
        #expect(Self.milliseconds(run.lastSeen) == Self.milliseconds(checks[2]))
        let history = try await store.reader.history(domain: "example.com")
        #expect(history.map { Self.milliseconds($0.at) } == [Self.milliseconds(event)])
        let heartbeat = try #require(try await store.reader.heartbeat())
        #expect(Self.milliseconds(heartbeat.startedAt) == Self.milliseconds(started))
        #expect(Self.milliseconds(heartbeat.beatAt) == Self.milliseconds(beat))
        let deliveries = try await store.allDeliveries()
        #expect(deliveries.map { $0.firstAttemptAt.map(Self.milliseconds) } == [Self.milliseconds(firstAttempt), nil])
        #expect(
            deliveries.map { Self.milliseconds($0.createdAt) } == Array(repeating: Self.milliseconds(created), count: 2)
        )
        let finished = try #require(try await store.outboxEntry(id: deliveries[0].id)?.finishedAt)
        #expect(Self.milliseconds(finished) == Self.milliseconds(delivered))
        // The pending row is due: its next attempt (the created time) compares as time with an integer bound now.
        #expect(try await store.dueDeliveries(now: created).map(\.deliveryID) == ["dlv_2"])

        let (types, stored) = try await DatabaseQueue(path: path).read { db in
            (
                try Self.timeColumnTypes(db),
                try Int64.fetchAll(db, sql: "SELECT first_seen FROM runs UNION ALL SELECT last_seen FROM runs")
            )
        }
        #expect(types.filter { $0.value != ["integer"] && !$0.value.isEmpty } == [:])
        #expect(types["silences.starts_at"] == [])
        #expect(stored == [Self.milliseconds(checks[0]), Self.milliseconds(checks[2])])
        #expect(try await store.reader.integrityCheck() == ["ok"])
    }
}

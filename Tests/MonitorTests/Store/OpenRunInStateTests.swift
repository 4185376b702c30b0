import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation
import TestSupport
import Testing

@testable import MonitorDaemon
@testable import MonitorStore

/// A repeated check writes only its domain's state row (v7): the open run's `last_seen` and `checks` live there, its
/// own row is finished when the run ends, and every reader sees the same figures as when each check moved the row.
@Suite("Open run kept in the state row")
struct OpenRunInStateTests {
    typealias R = StoreReports

    /// The `runs` rows as stored, oldest first: (checks, last_seen in whole minutes from `R.at(0)`).
    static func storedRows(_ path: String) async throws -> [[Int]] {
        try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT checks, last_seen FROM runs ORDER BY id").map { row in
                let lastSeen: Int64 = row["last_seen"]
                return [row["checks"], Int((lastSeen - StoredInstant(R.at(0)).milliseconds) / 60_000)]
            }
        }
    }

    @Test("three checks of one outcome leave its run's row as the first wrote it; history and status read all three")
    func repeatedChecksWriteOnlyTheState() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            for at in [0.0, 1, 2] {
                try await store.record(report: R.report(at: at, origin: "sha256:a", cdn: "sha256:a"))
            }
            #expect(try await Self.storedRows(store.path) == [[1, 0]])
            let runs = try await store.reader.runs(domain: "example.com")
            #expect(runs.map(\.checks) == [3])
            #expect(runs.map(\.lastSeen) == [R.at(2)])
            let recent = try await store.reader.recentChecks(domains: ["example.com"])
            #expect(recent["example.com"]?.count == 3)
            #expect(recent["example.com"]?.last?.lastSeen == R.at(2))
        }
    }

    @Test("when a run ends its row gets its figures from the state row, and the new run starts counting at one")
    func endedRunIsFinished() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            for at in [0.0, 1, 2] {
                try await store.record(report: R.report(at: at, origin: "sha256:a", cdn: "sha256:a"))
            }
            try await store.record(report: R.report(at: 3, origin: "sha256:b", cdn: "sha256:a", verdict: .cdnStale))
            try await store.record(report: R.report(at: 4, origin: "sha256:b", cdn: "sha256:a", verdict: .cdnStale))
            #expect(try await Self.storedRows(store.path) == [[3, 2], [1, 3]])
            let runs = try await store.reader.runs(domain: "example.com")
            #expect(runs.map(\.checks) == [2, 3])
            #expect(runs.map(\.lastSeen) == [R.at(4), R.at(2)])
            // Retention measures the open run by its real last check (minute 4); the ended one ended at minute 2.
            try await store.prune(olderThan: R.at(3.5))
            #expect(try await store.reader.runs(domain: "example.com").map(\.checks) == [2])
        }
    }

    @Test("v7-open-run-in-state copies each open run's figures from a v6 database into its state row")
    func migration() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/aasa-monitor.sqlite"
        // A v6 database as 0.6 left it: each check moved its open run's own row.
        let old = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(old, upTo: "v6-millisecond-dates")
        let first = StoredInstant(R.at(0)).milliseconds
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO runs (id, domain, first_seen, last_seen, checks, verdict, key, report_json)
                    VALUES (1, 'example.com', ?1, ?1 + 60000, 2, 'ready', x'01', x''),
                      (2, 'example.com', ?1 + 120000, ?1 + 600000, 9, 'cdn_stale', x'02', x'')
                    """,
                arguments: [first])
            try db.execute(
                sql: "INSERT INTO domain_state (domain, state_json, run_id) VALUES ('example.com', x'', 2)")
        }
        try old.close()

        let upgraded = try await MonitorStore.open(directory: directory)
        defer { try? upgraded.close() }
        let runs = try await upgraded.reader.runs(domain: "example.com")
        #expect(runs.map(\.checks) == [9, 2])
        #expect(runs.map(\.lastSeen) == [R.at(10), R.at(1)])
        let state = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: "SELECT run_checks, run_last_seen FROM domain_state")
        }
        #expect(state?["run_checks"] == 9)
        #expect(state?["run_last_seen"] == first + 600_000)
        #expect(try await upgraded.reader.integrityCheck() == ["ok"])
    }
}

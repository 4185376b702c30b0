import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// A domain's first events live in its opening run, and hashes are stored as bytes; `history`, `runs` and the
/// documents read the same as when both were text rows.
@Suite("Lean history")
struct LeanHistoryTests {
    typealias R = StoreReports

    /// A SHA-256 hash in the form reports carry, different for each `seed`.
    static func hash(_ seed: Int) -> String {
        "sha256:" + String(repeating: String(format: "%02x", seed % 256), count: 32)
    }

    /// `events` as any stored detail reads back: JSON keeps a whole 60.0 as 60 and a time as its text.
    static func asStored(_ events: some Sequence<TimelineEvent>) throws -> [TimelineEvent] {
        try events.map { event in
            var event = event
            event.detail = try JSONDecoder().decode(FindingDetail.self, from: JSONEncoder().encode(event.detail))
            return event
        }
    }

    @Test(
        "history tells what every check's ledger noted, in order, first events included",
        arguments: StoreKind.allCases)
    func historyIsTheLedgersTimeline(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let redirect = ReportFinding(code: .originRedirect, severity: .error, source: .wellKnown, message: "x")
            // Broken at first (no first_seen yet), then valid, changed, propagated; a second domain interleaved at
            // the same times must not mix in.
            let reports = [
                R.report(at: 0, origin: nil, cdn: nil, verdict: .originBroken, findings: [redirect]),
                R.report(domain: "other.example", at: 0, origin: Self.hash(9), cdn: Self.hash(9)),
                R.report(at: 1, origin: Self.hash(1), cdn: Self.hash(1)),
                R.report(at: 2, origin: Self.hash(2), cdn: Self.hash(1), verdict: .cdnStale),
                R.report(at: 3, origin: Self.hash(2), cdn: Self.hash(2)),
            ]
            var noted: [String: [TimelineEvent]] = [:]
            for report in reports {
                let outcome = try await store.record(report: report)
                noted[report.domain, default: []] += outcome.timeline
            }
            #expect(noted["example.com"]?.first?.kind == .verdictChanged)
            #expect(noted["example.com"]?.contains { $0.kind == .originFirstSeen } == true)
            for domain in ["example.com", "other.example"] {
                #expect(try await store.reader.history(domain: domain) == Self.asStored(noted[domain] ?? []))
            }
            // Only the newest, oldest first: a synthesized first event is dropped like a row.
            let other = try #require(noted["other.example"])
            #expect(try await store.reader.history(domain: "other.example", limit: 1) == Self.asStored(other.suffix(1)))
            let all = try #require(noted["example.com"])
            #expect(try await store.reader.history(domain: "example.com", limit: 3) == Self.asStored(all.suffix(3)))
        }
    }

    @Test("a domain's first check writes no timeline row: its opening run stands for its events")
    func firstCheckWritesNoTimelineRow() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            let first = try await store.record(report: R.report(at: 0, origin: Self.hash(1), cdn: Self.hash(2)))
            #expect(first.timeline.map(\.kind) == [.verdictChanged, .originFirstSeen, .cdnStale])
            // Only the stale copy is a row; the first two come from the run.
            #expect(try await store.count([.timeline]) == [1])
            #expect(try await store.reader.history(domain: "example.com") == first.timeline)
        }
    }

    @Test("hashes and run keys are stored as bytes and read back as text")
    func hashesAreBytes() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(at: 0, origin: Self.hash(1), cdn: Self.hash(2)))
            let database = try DatabaseQueue(path: store.path)
            defer { try? database.close() }
            let stored = try database.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT typeof(origin_hash) AS origin, length(origin_hash) AS originLength,
                          typeof(key) AS key, length(key) AS keyLength,
                          (SELECT group_concat(typeof(hash)) FROM documents) AS documents FROM runs
                        """)
            }
            let row = try #require(stored)
            #expect(row["origin"] as String == "blob")
            #expect(row["originLength"] as Int == 32)
            #expect(row["key"] as String == "blob")
            #expect(row["keyLength"] as Int == 16)
            #expect(row["documents"] as String == "blob,blob")
            let run = try #require(try await store.reader.runs(domain: "example.com").first)
            #expect(run.originHash == Self.hash(1))
            #expect(run.cdnHash == Self.hash(2))
            #expect(try await store.reader.document(hash: Self.hash(1)) != nil)
            // The same outcome again extends the run: the key read back as text equals the ledger's.
            try await store.record(report: R.report(at: 1, origin: Self.hash(1), cdn: Self.hash(2)))
            #expect(try await store.reader.runs(domain: "example.com").map(\.checks) == [2])
        }
    }

    @Test("an older database's text hashes become bytes; its timeline rows are read once and its documents kept")
    func olderTextHashesAreConverted() async throws {
        let hash = Self.hash(1)
        let firstSeen = TimelineEvent(at: R.at(0), kind: .originFirstSeen, detail: ["hash": .string(hash)])
        let directory = try await StoreMigrationTests.version1Directory { db in
            for minute in [0.0, 1] {
                try db.execute(
                    sql: """
                        INSERT INTO checks (domain, checked_at, duration, verdict, origin_hash, cdn_hash, report_json)
                        VALUES ('example.com', ?, 0.25, 'ready', ?, ?, ?)
                        """,
                    arguments: [
                        R.at(minute), hash, hash,
                        try R.plainJSON(R.report(at: minute, origin: hash, cdn: hash)),
                    ])
            }
            try db.execute(
                sql: "INSERT INTO documents VALUES (?, '{}', ?, ?)", arguments: [hash, R.at(0), R.at(1)])
            try db.execute(
                sql: "INSERT INTO timeline (domain, at, kind, detail_json) VALUES ('example.com', ?, ?, ?)",
                arguments: [R.at(0), firstSeen.kind.rawValue, try R.plainJSON(firstSeen.detail)])
            var state = DomainState(
                domain: "example.com", verdict: .ready, verdictSince: R.at(0), lastCheck: R.at(1), lastDuration: 0.25)
            state.originHash = hash
            state.cdnHash = hash
            try db.execute(
                sql: "INSERT INTO domain_state VALUES ('example.com', ?, ?, ?, ?)",
                arguments: [try R.plainJSON(state), hash, hash, R.at(1)])
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("aasa-monitor.sqlite")

        let store = try await MonitorStore.open(directory: directory)
        defer { try? store.close() }
        let types = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT typeof(hash) FROM documents UNION ALL SELECT typeof(origin_hash) FROM runs
                    UNION ALL SELECT typeof(cdn_hash) FROM runs UNION ALL SELECT typeof(origin_hash) FROM domain_state
                    """)
        }
        #expect(types == ["blob", "blob", "blob", "blob"])
        #expect(try await store.reader.runs(domain: "example.com").map(\.originHash) == [hash])
        let before = try await store.reader.history(domain: "example.com")
        #expect(before == [firstSeen])
        // The same meaning after the upgrade is no change and opens nothing.
        let next = try await store.record(report: R.report(at: 5, origin: hash, cdn: hash))
        #expect(next.timeline.isEmpty)
        #expect(try await store.reader.history(domain: "example.com") == [firstSeen])
        // Retention finds the runs' byte hashes among the documents' and keeps the one still served.
        try await store.prune(olderThan: R.at(100))
        #expect(try await store.reader.document(hash: hash) == "{}")
        #expect(try await store.count([.documents]) == [1])
    }
}

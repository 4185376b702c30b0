import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

@Suite("Monitor store")
struct MonitorStoreTests {
    typealias R = StoreReports

    @Test("a recorded check reads back as state, history and a run", arguments: StoreKind.allCases)
    func recordAndReadBack(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let finding = ReportFinding(
                code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects",
                detail: ["location": "https://www.example.com/"])
            let result = try await store.record(
                report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a", findings: [finding]))
            #expect(result.state.verdict == .ready)
            #expect(result.timeline.map(\.kind) == [.verdictChanged, .originFirstSeen])

            let states = try await store.reader.domainStates()
            #expect(states == [result.state])
            let history = try await store.reader.history(domain: "example.com")
            #expect(history == result.timeline)
            let runs = try await store.reader.runs(domain: "example.com")
            #expect(runs.map(\.originHash) == ["sha256:a"])
            #expect(runs.first?.firstSeen == R.at(0))
            let run = try #require(runs.first)
            let stored = try #require(try await store.reader.runReport(id: run.id))
            #expect(stored.findings == [finding])
            #expect(try await store.reader.document(hash: "sha256:a")?.contains("applinks") == true)
            #expect(try await store.reader.integrityCheck() == ["ok"])
        }
    }

    @Test("a repeated outcome extends its run; a changed one starts the next", arguments: StoreKind.allCases)
    func historyByChange(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            for minute in 0..<20 {
                try await store.record(report: R.report(at: Double(minute), origin: "sha256:a", cdn: "sha256:b"))
            }
            #expect(try await store.count([.documents, .runs]) == [2, 1])
            let first = try #require(try await store.reader.runs(domain: "example.com").first)
            #expect(first.checks == 20)
            #expect(first.firstSeen == R.at(0))
            #expect(first.lastSeen == R.at(19))

            try await store.record(report: R.report(at: 20, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(report: R.report(at: 21, origin: "sha256:a", cdn: "sha256:a"))
            let runs = try await store.reader.runs(domain: "example.com")
            #expect(runs.map(\.checks) == [2, 20])
            #expect(runs.map(\.cdnHash) == ["sha256:a", "sha256:b"])
        }
    }

    @Test("a firing alert and its deliveries are written with the check, once", arguments: StoreKind.allCases)
    func alertsAndDeliveries(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let policy = LedgerPolicy(
                alerts: AlertPolicy(failureThreshold: 1),
                webhooks: [WebhookConfiguration(name: "ops", url: "https://hooks.example.test/x")])
            let redirect = ReportFinding(
                code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects")
            let broken = R.report(
                at: 0, origin: nil, cdn: "sha256:a", verdict: .originBroken, findings: [redirect])
            let first = try await store.record(report: broken, policy: policy)
            #expect(first.events.map(\.type) == [.alertFiring])
            var again = broken
            again.checkedAt = R.at(1)
            let second = try await store.record(report: again, policy: policy)
            #expect(second.events.isEmpty)
            let alerts = try await store.reader.alertStates(domain: "example.com")
            #expect(alerts.map(\.identity) == [redirect.identity(domain: "example.com")])
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 1, retrying: 0, dead: 0))
        }
    }

    @Test("a check whose state cannot be read keeps nothing of the check")
    func failureRollsBack() async throws {
        try await withTemporaryStore(.onDisk) { store, directory in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let other = try DatabaseQueue(path: store.path)
            try await other.write { db in try db.execute(sql: "UPDATE domain_state SET state_json = x'00'") }
            try other.close()
            await #expect(throws: StoreError.self) {
                try await store.record(report: R.report(at: 1, origin: "sha256:b", cdn: "sha256:a"))
            }
            // The first check's events are its opening run's (`FirstRunEvents`): no timeline rows.
            #expect(try await store.count([.runs, .documents, .timeline]) == [1, 1, 0])
        }
    }

    @Test("checks finishing together are recorded together; one that cannot be read fails alone")
    func groupCommit() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(domain: "broken.example", at: 0, origin: "sha256:a", cdn: nil))
            let other = try DatabaseQueue(path: store.path)
            try await other.write { db in try db.execute(sql: "UPDATE domain_state SET state_json = x'00'") }
            try other.close()
            let domains = (0..<40).map { "d\($0).example" } + ["broken.example"]
            let results = await withTaskGroup(of: (String, Bool).self) { group in
                for domain in domains {
                    group.addTask {
                        let report = R.report(domain: domain, at: 1, origin: "sha256:a", cdn: "sha256:a")
                        return (domain, (try? await store.record(report: report)) != nil)
                    }
                }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.filter(\.value).count == 40)
            #expect(results["broken.example"] == false)
            #expect(try await store.reader.domainStates(domains: ["d0.example", "d39.example"]).count == 2)
            #expect(try await store.reader.integrityCheck() == ["ok"])
        }
    }

    @Test("the heartbeat keeps its start while the same process beats")
    func heartbeat() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.beat(pid: 42, at: R.at(0), version: "1.0", host: "h")
            try await store.beat(pid: 42, at: R.at(1), version: "1.0", host: "h")
            #expect(
                try await store.reader.heartbeat()
                    == Heartbeat(pid: 42, host: "h", startedAt: R.at(0), beatAt: R.at(1), version: "1.0"))
            try await store.beat(pid: 43, at: R.at(2), version: "1.1", host: "h")
            #expect(try await store.reader.heartbeat()?.startedAt == R.at(2))
        }
    }

    @Test("retention keeps the current state and removes old rows", arguments: StoreKind.allCases)
    func prune(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let stale = ReportFinding(code: .cdnStale, severity: .warning, source: .cdn, message: "stale")
            try await store.record(report: R.report(at: 0, origin: "sha256:old", cdn: "sha256:old"))
            try await store.record(
                report: R.report(at: 10, origin: "sha256:new", cdn: "sha256:old", findings: [stale]))
            try await store.record(report: R.report(domain: "quiet.example", at: 0, origin: "sha256:q", cdn: nil))
            #expect(try await store.count([.runs]) == [3])
            let before = try await store.reader.domainStates()
            let result = try await store.prune(olderThan: R.at(60))
            // Each domain's open run stays: it is where the next repeat is counted.
            #expect(result.runs == 1)
            #expect(try await store.reader.domainStates() == before)
            #expect(try await store.count([.runs, .timeline]) == [2, 0])
            // Both current states still point at their documents; the superseded meaning is gone.
            #expect(try await store.reader.document(hash: "sha256:new") != nil)
            #expect(try await store.reader.document(hash: "sha256:q") != nil)
            #expect(try await store.reader.document(hash: "sha256:old") != nil, "Apple still serves it")
            try await store.record(report: R.report(at: 70, origin: "sha256:new", cdn: "sha256:new"))
            try await store.record(report: R.report(at: 71, origin: "sha256:new", cdn: "sha256:new"))
            try await store.prune(olderThan: R.at(71))
            #expect(try await store.reader.document(hash: "sha256:old") == nil)
            #expect(try await store.reader.integrityCheck() == ["ok"])
        }
    }

    /// The state keeps a copy of a hash only when the open run does not hold it: the last valid origin meaning while
    /// the origin is broken. Retention must keep that document after the run that saw it is gone.
    @Test("retention keeps the last valid origin document while the origin is broken, after its run is gone")
    func pruneKeepsBrokenOriginDocument() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:good", cdn: "sha256:good"))
            try await store.record(report: R.report(at: 10, origin: nil, cdn: nil, verdict: .originBroken))
            try await store.prune(olderThan: R.at(60))
            #expect(try await store.count([.runs]) == [1])
            #expect(try await store.reader.domainStates().first?.originHash == "sha256:good")
            #expect(try await store.reader.document(hash: "sha256:good") != nil)
            // Back to the same meaning: it is not a change, and its document is still there to compare with.
            let back = try await store.record(report: R.report(at: 70, origin: "sha256:good", cdn: "sha256:good"))
            #expect(!back.timeline.contains { $0.kind == .originChanged })
        }
    }
}

extension MonitorStore {
    /// Row counts of `tables`, in order.
    func count(_ tables: [StoreTable]) async throws -> [Int] {
        var counts: [Int] = []
        for table in tables { counts.append(try await reader.rowCount(table: table)) }
        return counts
    }
}

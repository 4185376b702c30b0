import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// Silences as rows: written by `silence add`/`expire`, read by each check in its own transaction, kept by the
/// `v5-silences` migration beside everything older.
@Suite("Store: silences")
struct SilenceStoreTests {
    typealias R = StoreReports

    static let policy = LedgerPolicy(
        alerts: AlertPolicy(failureThreshold: 1, repeatAfter: 0),
        webhooks: [WebhookConfiguration(name: "ops", url: "https://hooks.example.test/x")])
    static let redirect = ReportFinding(code: .originRedirect, severity: .error, source: .wellKnown, message: "x")

    static func broken(at minutes: Double) -> DomainReport {
        R.report(at: minutes, origin: nil, cdn: "sha256:a", verdict: .originBroken, findings: [redirect])
    }

    @Test(
        "a stored silence mutes the check's deliveries; expiring it sends the firing alert once",
        arguments: StoreKind.allCases)
    func mutesThenCatchesUp(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let silence = try await store.addSilence(
                domains: ["example.com"], code: nil, from: R.at(0), until: R.at(60), author: "alice",
                reason: "migration", at: R.at(0))
            #expect(silence.id == "1")
            let first = try await store.record(report: Self.broken(at: 1), policy: Self.policy)
            #expect(first.deliveries.isEmpty)
            #expect(first.timeline.contains { $0.kind == .alertFiring })
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 0, retrying: 0, dead: 0))
            let listed = try await store.reader.silences(at: R.at(2))
            #expect(listed.map(\.author) == ["alice"])

            let expired = try await store.expireSilence(id: 1, by: "bob", at: R.at(3))
            #expect(expired?.endsAt == R.at(3))
            #expect(try await store.reader.silences(at: R.at(3)).isEmpty)
            #expect(try await store.expireSilence(id: 9, by: "bob", at: R.at(3)) == nil)
            let after = try await store.record(report: Self.broken(at: 4), policy: Self.policy)
            #expect(after.deliveries.map(\.event.type) == [.alertFiring])
            let again = try await store.record(report: Self.broken(at: 5), policy: Self.policy)
            #expect(again.deliveries.isEmpty)
        }
    }

    @Test("a silence of other domains or not yet begun mutes nothing; --all mutes every domain")
    func scope() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            _ = try await store.addSilence(
                domains: ["other.example"], code: nil, from: R.at(0), until: R.at(60), author: "a", reason: "r",
                at: R.at(0))
            _ = try await store.addSilence(
                domains: nil, code: nil, from: R.at(30), until: R.at(60), author: "a", reason: "r", at: R.at(0))
            let first = try await store.record(report: Self.broken(at: 1), policy: Self.policy)
            #expect(first.deliveries.count == 1)
            var fixed = R.report(at: 31, origin: "sha256:a", cdn: "sha256:a")
            fixed.findings = []
            // The alert receivers were told of resolves inside the --all silence: its resolution goes out (issue
            // 35 item 3); a new firing inside it is muted.
            let resolved = try await store.record(report: fixed, policy: Self.policy)
            #expect(resolved.deliveries.map(\.event.type) == [.alertResolved])
            let again = try await store.record(report: Self.broken(at: 32), policy: Self.policy)
            #expect(again.deliveries.isEmpty)
        }
    }

    @Test("an open maintenance window of the configuration acts as a silence; its domains bound it")
    func maintenanceWindow() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let always = MaintenanceWindow(
                name: "deploy", startMinute: 0, duration: .seconds(86_400), timeZone: TimeZone(secondsFromGMT: 0)!)
            var policy = Self.policy
            policy.maintenance = [always]
            let muted = try await store.record(report: Self.broken(at: 1), policy: policy)
            #expect(muted.deliveries.isEmpty)
            policy.maintenance[0].domains = ["other.example"]
            var again = Self.broken(at: 2)
            again.domain = "shop.example"
            let sent = try await store.record(report: again, policy: policy)
            #expect(sent.deliveries.map(\.event.type) == [.alertFiring])
        }
    }

    @Test("v5-silences adds the table to a v4 database and keeps its states and outbox")
    func migration() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await MonitorStore.open(directory: directory)
        _ = try await store.record(
            report: Self.broken(at: 1),
            policy: LedgerPolicy(alerts: Self.policy.alerts, webhooks: Self.policy.webhooks))
        try store.close()
        // Back to v4, as the previous version left it.
        let path = directory + "/aasa-monitor.sqlite"
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE silences")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5-silences'")
        }
        try queue.close()
        #expect(throws: StoreError.self) { try StoreReader.openReadOnly(directory: directory) }

        let upgraded = try await MonitorStore.open(directory: directory)
        defer { try? upgraded.close() }
        #expect(try await upgraded.reader.silences(at: R.at(0)).isEmpty)
        #expect(try await upgraded.reader.alertStates(domain: "example.com").count == 1)
        #expect(try await upgraded.outboxCounts() == OutboxCounts(pending: 1, retrying: 0, dead: 0))
        #expect(try await upgraded.reader.integrityCheck() == ["ok"])
        #expect(try StoreReader.openReadOnly(directory: directory).path == path)
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

@testable import MonitorDaemon

/// Issue 33, hazard H1, end to end through the SQLite journal: a fault's condition change and a later check's that
/// undoes it must commit in the order they happened, so a restart restores the newest set and receivers are told
/// `monitor.firing` before `monitor.resolved`. On the old coordination (`ConditionBook`, appends racing to the
/// group commit) the same interleaving restored `[monitor.resources]` and queued the resolution first.
@Suite("condition order")
struct ConditionOrderTests {
    static let t0 = StoreReports.start

    static func configuration() throws -> MonitorConfiguration {
        let yaml = """
            interval: 60s
            webhooks:
              - name: hook
                url: https://hooks.example.test/in
            domains:
              - a.test
              - b.test

            """
        return try ConfigurationLoader.load(text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
    }

    /// Performs the core's appends on `store` as the executor does, answering each item in order.
    static func perform(
        _ actions: [DaemonCore.Action], on store: MonitorStore, core: inout DaemonCore, now: Date
    )
        async throws -> [DaemonCore.Action]
    {
        var next: [DaemonCore.Action] = []
        for case .append(let batch) in actions {
            let results = try await store.append(batch.items.map(\.append))
            for (item, result) in zip(batch.items, results) {
                guard case .committed(let run) = result else { Issue.record("item \(item.seq) failed"); continue }
                next += core.receive(.committed(item.seq, run: run, now: now))
            }
        }
        return next
    }

    @Test("a fault overtaken by a check that clears it: the restart restores the newest set, firing comes first")
    func newestSetSurvivesRestart() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var core = DaemonCore(
            configuration: try Self.configuration(), book: [:], conditions: [], now: Self.t0,
            tunables: DaemonCore.Tunables(jitter: 0, startupWindow: 0))
        var jobs: [String: DaemonCore.Job] = [:]
        var actions = core.receive(.listening(now: Self.t0)) + core.receive(.silencesRead([], now: Self.t0))
        for case .start(let started) in actions { for job in started { jobs[job.domain] = job } }
        let a = try #require(jobs["a.test"])
        let b = try #require(jobs["b.test"])
        let store = try await MonitorStore.open(directory: directory)

        // a.test's check ends short of descriptors: the core fires monitor.resources and appends it at once.
        actions = core.receive(.checked(a.id, .resourceShortage(reason: "EMFILE"), now: Self.t0.addingTimeInterval(1)))
        // While that append is in flight, b.test's clean check clears it: nothing leaves the core yet.
        let report = StoreReports.report(domain: "b.test", at: 0.05, origin: "o1", cdn: "o1")
        var generator = SystemRandomNumberGenerator()
        let outcome = DomainReducer.records(
            of: report, entry: nil, policy: b.ledger, silences: [], previousOriginDocument: nil,
            makeID: { EventID.make(at: report.checkedAt, using: &generator) })
        let early = core.receive(
            .checked(b.id, .reported(.init(report: report, outcome: outcome)), now: report.checkedAt))
        #expect(!early.contains { if case .append = $0 { true } else { false } })
        // The first append commits; only then does the second, carrying the cleared set and b's check.
        actions = try await Self.perform(actions, on: store, core: &core, now: Self.t0.addingTimeInterval(4))
        actions = try await Self.perform(actions, on: store, core: &core, now: Self.t0.addingTimeInterval(5))
        #expect(core.activeConditions.isEmpty)
        try store.close()

        // A restart reads what was stored.
        let reopened = try await MonitorStore.open(directory: directory)
        defer { try? reopened.close() }
        #expect(try await reopened.activeConditions().map(\.code) == core.activeConditions.keys.sorted())
        let types = try await reopened.allDeliveries().sorted { $0.id < $1.id }.map { delivery in
            (try JSONSerialization.jsonObject(with: delivery.eventJSON) as? [String: Any])?["type"] as? String
        }
        #expect(types == ["monitor.firing", "monitor.resolved"])
    }
}

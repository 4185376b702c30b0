import AASA
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import TestSupport
import Testing

@Suite("Status and history read models")
struct StatusReaderTests {
    typealias R = StoreReports

    /// `value` encoded the way commands print it, parsed back into plain JSON objects.
    private func json(_ value: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(value))
        return try #require(object as? [String: Any])
    }

    @Test("status --json has the documented shape with RFC 3339 times and explicit nulls")
    func statusShape() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let finding = ReportFinding(code: .cdnStale, severity: .warning, source: .cdn, message: "stale")
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(
                report: R.report(at: 10, origin: "sha256:b", cdn: "sha256:a", findings: [finding]),
                policy: LedgerPolicy(alerts: AlertPolicy(failureThreshold: 1), webhooks: []))
            let pid = ProcessInfo.processInfo.processIdentifier
            try await store.beat(pid: pid, at: R.at(10), version: "1.0")
            let snapshot = try await StatusReader(store: store.reader).snapshot(now: R.at(10).addingTimeInterval(3))
            let root = try json(snapshot)

            let daemon = try #require(root["daemon"] as? [String: Any])
            #expect(daemon["running"] as? Bool == true)
            #expect(daemon["pid"] as? Int == Int(pid))
            #expect(daemon["heartbeat"] as? String == "2027-01-15T08:10:00Z")
            #expect(daemon["heartbeat_age"] as? Double == 3)

            let domains = try #require(root["domains"] as? [[String: Any]])
            let domain = try #require(domains.first)
            #expect(domain["domain"] as? String == "example.com")
            #expect(domain["verdict"] as? String == "ready")
            #expect(domain["since"] as? String == "2027-01-15T08:00:00Z")
            #expect(domain["last_check"] as? String == "2027-01-15T08:10:00Z")
            let findings = try #require(domain["findings"] as? [[String: Any]])
            #expect(findings.first?["code"] as? String == "cdn.stale")
            #expect(findings.first?["since"] as? String == "2027-01-15T08:10:00Z")
            let cdn = try #require(domain["cdn"] as? [String: Any])
            #expect(cdn["in_sync"] as? Bool == false)
            #expect(cdn["stale_since"] as? String == "2027-01-15T08:10:00Z")
            #expect(cdn["expected_refresh"] is NSNull)
            #expect(cdn["last_propagation_delay"] is NSNull)
            let certificate = try #require(domain["certificate"] as? [String: Any])
            #expect(certificate["not_after"] is NSNull)
            let alerts = try #require(domain["alerts"] as? [[String: Any]])
            #expect(alerts.first?["state"] as? String == "firing")
            #expect(alerts.first?["since"] as? String == "2027-01-15T08:10:00Z")
            let outbox = try #require(root["outbox"] as? [String: Any])
            #expect(outbox["pending"] as? Int == 0)
            #expect(outbox["retrying"] as? Int == 0)
            #expect(outbox["dead"] as? Int == 0)
            #expect(outbox["next_attempt"] is NSNull)
        }
    }

    @Test("the daemon is not running when its heartbeat is older than the bound or its process is gone")
    func daemonLiveness() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let reader = StatusReader(store: store.reader)
            #expect(try await reader.snapshot(now: R.at(0)).daemon.running == false)
            let pid = ProcessInfo.processInfo.processIdentifier
            try await store.beat(pid: pid, at: R.at(0), version: "1.0")
            #expect(try await reader.snapshot(now: R.at(0).addingTimeInterval(10)).daemon.running)
            let late = R.at(0).addingTimeInterval(StatusReader.heartbeatBound + 1)
            #expect(try await reader.snapshot(now: late).daemon.running == false)
            try await store.beat(pid: Int32.max, at: R.at(1), version: "1.0")
            #expect(try await reader.snapshot(now: R.at(1)).daemon.running == false, "no such process")
        }
    }

    @Test("status can be limited to named domains")
    func namedDomains() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.record(report: R.report(domain: "a.example", at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(report: R.report(domain: "b.example", at: 0, origin: "sha256:b", cdn: nil))
            let snapshot = try await StatusReader(store: store.reader).snapshot(now: R.at(1), domains: ["b.example"])
            #expect(snapshot.domains.map(\.domain) == ["b.example"])
            let text = StatusText.render(snapshot)
            #expect(text.contains("ready  b.example"))
            #expect(text.contains("outbox: 0 pending, 0 retrying, 0 dead"))
        }
    }

    @Test("history --json lists events oldest first with their detail flattened")
    func historyShape() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            try await store.record(report: R.report(at: 10, origin: "sha256:b", cdn: "sha256:a"))
            try await store.record(report: R.report(at: 30, origin: "sha256:b", cdn: "sha256:b"))
            let history = try await StatusReader(store: store.reader).history(domain: "example.com")
            let root = try json(history)
            #expect(root["domain"] as? String == "example.com")
            let events = try #require(root["events"] as? [[String: Any]])
            #expect(
                events.map { $0["kind"] as? String } == [
                    "verdict.changed", "origin.first_seen", "origin.changed", "cdn.stale", "cdn.propagated",
                    "cdn.in_sync",
                ])
            let propagated = try #require(events.first { $0["kind"] as? String == "cdn.propagated" })
            #expect(propagated["at"] as? String == "2027-01-15T08:30:00Z")
            #expect(propagated["delay"] as? Double == 1200)
            #expect(propagated["changed_at"] as? String == "2027-01-15T08:10:00Z")
            #expect(HistoryText.render(history).contains("cdn.propagated changed_at=2027-01-15T08:10:00Z delay=20m"))
        }
    }
}

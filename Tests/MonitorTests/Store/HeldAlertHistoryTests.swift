import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import TestSupport
import Testing

/// Issue 35 item 18 at the store: `history` says which alert events a silence held, by whom, and when a held firing
/// went out; one order for events and outcomes.
@Suite("Store: history of held alerts")
struct HeldAlertHistoryTests {
    typealias R = StoreReports

    static let policy = SilenceStoreTests.policy

    static func fixed(at minutes: Double) -> DomainReport {
        R.report(at: minutes, origin: "sha256:a", cdn: "sha256:a")
    }

    static func alertEvents(_ events: [TimelineEvent]) -> [TimelineEvent] {
        events.filter { $0.kind == .alertFiring || $0.kind == .alertResolved }
    }

    @Test("a firing held by a silence says who held it and, once it ended, when it was sent; one row, not two")
    func heldThenSent() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            _ = try await store.addSilence(
                domains: ["example.com"], code: nil, from: R.at(0), until: R.at(60), author: "alice",
                reason: "migration", at: R.at(0))
            _ = try await store.record(report: SilenceStoreTests.broken(at: 1), policy: Self.policy)
            _ = try await store.expireSilence(id: 1, by: "bob", at: R.at(3))
            let caughtUp = try await store.record(report: SilenceStoreTests.broken(at: 4), policy: Self.policy)
            #expect(caughtUp.deliveries.map(\.event.type) == [.alertFiring])
            _ = try await store.record(report: Self.fixed(at: 5), policy: Self.policy)

            let history = try await StatusReader(store: store.reader).history(domain: "example.com")
            let alerts = Self.alertEvents(history.events)
            #expect(alerts.map(\.kind) == [.alertFiring, .alertResolved])
            let firing = try #require(alerts.first)
            #expect(firing.at == R.at(1))
            #expect(firing.detail["sent"] == .bool(false))
            #expect(firing.detail["sent_at"] == .string(R.at(4).rfc3339))
            guard case .object(let silence)? = firing.detail["silenced"] else {
                Issue.record("no silenced detail: \(firing.detail)")
                return
            }
            #expect(silence["by"] == .string("alice"))
            #expect(silence["reason"] == .string("migration"))
            #expect(silence["id"] == .string("1"))
            #expect(alerts.last?.detail["sent"] == nil)

            let text = TimeText.$current.withValue(.utc) { HistoryText.render(history) }
            let line = try #require(text.split(separator: "\n").first { $0.contains("alert.firing") })
            #expect(
                line.hasSuffix(
                    "not sent (silenced until \(R.at(60).rfc3339) by alice: migration), sent at \(R.at(4).rfc3339)"),
                "\(text)")
            #expect(!line.contains("sent=") && !line.contains("silenced={"), "\(line)")

            // JSON: the firing keeps its keys and gains sent, silenced and sent_at.
            let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(history))
            let events = try #require((json as? [String: Any])?["events"] as? [[String: Any]])
            let fired = try #require(events.first { $0["kind"] as? String == "alert.firing" })
            #expect(fired["code"] as? String == "origin.redirect")
            #expect(fired["sent"] as? Bool == false)
            #expect(fired["sent_at"] as? String == R.at(4).rfc3339)
            #expect((fired["silenced"] as? [String: Any])?["by"] as? String == "alice")
        }
    }

    @Test("an alert that fired and resolved inside a silence is marked not sent, both ways, and never sent")
    func firedAndResolvedInside() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            _ = try await store.addSilence(
                domains: nil, code: nil, from: R.at(0), until: R.at(60), author: "alice", reason: "planned",
                at: R.at(0))
            _ = try await store.record(report: SilenceStoreTests.broken(at: 1), policy: Self.policy)
            _ = try await store.record(report: Self.fixed(at: 2), policy: Self.policy)
            _ = try await store.expireSilence(id: 1, by: "bob", at: R.at(3))
            _ = try await store.record(report: Self.fixed(at: 4), policy: Self.policy)

            let history = try await StatusReader(store: store.reader).history(domain: "example.com")
            let alerts = Self.alertEvents(history.events)
            #expect(alerts.map(\.kind) == [.alertFiring, .alertResolved])
            #expect(alerts.allSatisfy { $0.detail["sent"] == .bool(false) && $0.detail["sent_at"] == nil })
            let text = TimeText.$current.withValue(.utc) { HistoryText.render(history) }
            let lines = text.split(separator: "\n").filter { $0.contains("alert.") }
            #expect(lines.count == 2, "\(text)")
            #expect(
                lines.allSatisfy { $0.hasSuffix("not sent (silenced until \(R.at(60).rfc3339) by alice: planned)") })
        }
    }

    @Test("a sending whose held firing is older than --limit keeps its own row, saying when it fired")
    func sentBeyondTheLimit() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            _ = try await store.addSilence(
                domains: ["example.com"], code: nil, from: R.at(0), until: R.at(60), author: "alice",
                reason: "migration", at: R.at(0))
            _ = try await store.record(report: SilenceStoreTests.broken(at: 1), policy: Self.policy)
            _ = try await store.expireSilence(id: 1, by: "bob", at: R.at(3))
            _ = try await store.record(report: SilenceStoreTests.broken(at: 4), policy: Self.policy)

            let history = try await StatusReader(store: store.reader).history(domain: "example.com", limit: 1)
            #expect(history.events.map(\.kind) == [.alertFiring])
            #expect(history.events.first?.at == R.at(4))
            let text = TimeText.$current.withValue(.utc) { HistoryText.render(history) }
            #expect(text.contains("sent after a silence (fired \(R.at(1).rfc3339))"), "\(text)")
        }
    }

    @Test("events and outcomes are printed in one order, oldest first")
    func oneOrder() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            _ = try await store.record(report: Self.fixed(at: 1), policy: Self.policy)
            _ = try await store.record(report: SilenceStoreTests.broken(at: 2), policy: Self.policy)
            _ = try await store.record(report: Self.fixed(at: 3), policy: Self.policy)
            let history = try await StatusReader(store: store.reader).history(domain: "example.com")
            #expect(history.runs.count == 3)
            let text = TimeText.$current.withValue(.utc) { HistoryText.render(history) }
            let lines = text.split(separator: "\n").map(String.init)
            let heading = try #require(lines.firstIndex(of: "outcomes, oldest first:"), "\(text)")
            let eventTimes = lines[..<heading].map { String($0.prefix(20)) }
            let runTimes = lines[(heading + 1)...].compactMap { line in
                line.range(of: " from ").map { String(line[$0.upperBound...].prefix(20)) }
            }
            #expect(runTimes == [R.at(1), R.at(2), R.at(3)].map(\.rfc3339), "\(text)")
            #expect(eventTimes == eventTimes.sorted(), "\(text)")
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// Issue 25 item 7 with the real binary: `aasa-monitor outbox list|retry|drop`, with the daemon stopped and running.
@Suite("outbox commands end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct OutboxEndToEndTests {
    /// A state directory holding one dead letter (#1), one retrying delivery (#2) and one delivered (#3).
    static func stoppedState() async throws -> String {
        let directory = try makeTemporaryDirectory()
        let store = try await MonitorStore.open(directory: directory)
        defer { try? store.close() }
        let now = Date()
        try await store.enqueue(
            ["dead", "retrying", "done"].map { name in
                let event = #"{"type":"alert.firing","domain":"\#(name).example.com","code":"origin.status"}"#
                return OutboxInsert(
                    deliveryID: "dlv_\(name)", eventID: "evt_\(name)", webhook: "ops", eventJSON: Data(event.utf8),
                    createdAt: now, nextAttemptAt: now)
            })
        try await store.markDead(id: 1, at: now, status: 404, error: "the receiver answered 404")
        try await store.markRetry(
            id: 2, at: now, nextAttemptAt: now.addingTimeInterval(3600), status: nil, error: "connection refused")
        try await store.markDelivered(id: 3, at: now, status: 200)
        return directory
    }

    static func outbox(_ arguments: [String], _ directory: String) async throws -> MonitorBinary.Completion {
        try await MonitorBinary.run(["outbox"] + arguments + ["--state-dir", directory])
    }

    @Test("with the daemon stopped: list, a dead letter retried, a delivery dropped, unknown ids refused with 1")
    func stopped() async throws {
        let directory = try await Self.stoppedState()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let list = try await Self.outbox(["list"], directory)
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("#1  dead  ops  alert.firing dead.example.com origin.status"), "\(list.output)")
        #expect(list.output.contains("last answer HTTP 404; last error: the receiver answered 404"), "\(list.output)")
        #expect(list.output.contains("#2  retrying  ops"), "\(list.output)")
        #expect(!list.output.contains("#3"), "a delivered row is not listed: \(list.output)")

        let dead = try await Self.outbox(["list", "--dead", "--json"], directory)
        #expect(dead.status == 0, "\(dead.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dead.output.utf8)) as? [String: Any])
        let rows = try #require(object["deliveries"] as? [[String: Any]])
        #expect(rows.map { $0["delivery_id"] as? String } == ["dlv_dead"])
        #expect(rows.first?["event_id"] as? String == "evt_dead")

        let unknown = try await Self.outbox(["retry", "99"], directory)
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no delivery 99 in the outbox"), "\(unknown.error)")
        let delivered = try await Self.outbox(["drop", "3"], directory)
        #expect(delivered.status == 1)
        #expect(delivered.error.contains("delivery 3 (alert.firing done.example.com origin.status) was delivered"))
        let notNumber = try await Self.outbox(["drop", "latest"], directory)
        #expect(notNumber.status == 2)
        #expect(notNumber.error.contains("a delivery id is a number"), "\(notNumber.error)")
        let neither = try await Self.outbox(["retry"], directory)
        #expect(neither.status == 2)
        #expect(neither.error.contains("name the deliveries to retry, or --dead"), "\(neither.error)")

        let retry = try await Self.outbox(["retry", "1"], directory)
        #expect(retry.status == 0, "\(retry.error)")
        #expect(retry.output.contains("retry #1  pending  ops  alert.firing dead.example.com"), "\(retry.output)")
        #expect(retry.output.contains("attempts reset"), "\(retry.output)")
        let drop = try await Self.outbox(["drop", "2"], directory)
        #expect(drop.status == 0, "\(drop.error)")
        #expect(drop.output.contains("dropped #2  retrying  ops  alert.firing retrying.example.com"), "\(drop.output)")
        let after = try await Self.outbox(["list"], directory)
        #expect(after.output.contains("#1  pending  ops"), "\(after.output)")
        #expect(!after.output.contains("#2"), "\(after.output)")
        let none = try await Self.outbox(["list", "--dead"], directory)
        #expect(none.output.contains("no dead letters"), "\(none.output)")
    }

    @Test("without a database each command refuses as status does (exit 1); --json still prints the empty shape")
    func noDatabase() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let retry = try await Self.outbox(["retry", "1"], directory)
        #expect(retry.status == 1)
        #expect(retry.error.contains("no state database"), "\(retry.error)")
        let list = try await Self.outbox(["list", "--json"], directory)
        #expect(list.status == 1, "\(list.error)")
        #expect(list.error.contains("no state database"), "\(list.error)")
        #expect(list.output.contains(#""total":0"#), "\(list.output)")
    }

    @Test("with the daemon running: a dead letter retried is delivered within seconds, with its event id")
    func running() async throws {
        let fixture = try DaemonFixture()
        let domain = "shop.origin.test"
        try await fixture.withServers(domains: [domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [domain], origin: origin, cdn: cdn, caFile: ca,
                extra: WebhookEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("a ready check", log: daemon) {
                try await DaemonTests.checks(fixture, domain: domain).last?.verdict == "ready"
            }
            // The receiver refuses the alert's delivery for good (404: dead at once), then takes everything.
            fixture.receiverAnswers.withLock { $0 = [.text("no such hook", status: 404), .text(#"{"ok":true}"#)] }
            fixture.origin.withLock { $0 = (404, "not here") }
            var dead: [String: Any] = [:]
            try await eventually("the alert dead-lettered", log: daemon) {
                let list = try await MonitorBinary.run([
                    "outbox", "list", "--dead", "--json", "--config", fixture.configPath,
                ])
                let object = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any]
                guard let row = (object?["deliveries"] as? [[String: Any]])?.first else { return false }
                dead = row
                return true
            }
            #expect(dead["last_status"] as? Int == 404)
            let id = try #require(dead["id"] as? Int)
            let deliveryID = try #require(dead["delivery_id"] as? String)
            #expect((dead["event_id"] as? String)?.hasPrefix("evt_") == true)

            let retry = try await MonitorBinary.run(["outbox", "retry", "\(id)", "--config", fixture.configPath])
            #expect(retry.status == 0, "\(retry.error)")
            let retried = ContinuousClock.now
            // The origin stays broken and no reminder is due: only the retry can send anything now.
            try await eventually("the retried delivery taken", log: daemon) {
                let sent = receiver.requests.filter { $0.headerValues("webhook-id").first == deliveryID }
                guard sent.count >= 2 else { return false }
                let list = try await MonitorBinary.run(["outbox", "list", "--json", "--config", fixture.configPath])
                return list.output.contains(#""total":0"#)
            }
            let elapsed = ContinuousClock.now - retried
            let sent = receiver.requests.filter { $0.headerValues("webhook-id").first == deliveryID }
            let body = try #require(sent.last.map { Data($0.body) })
            let event = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            // The standard body's id is the webhook-id: the same as at the first attempt, so a receiver de-duplicates.
            #expect(event["id"] as? String == deliveryID)
            #expect(event["type"] as? String == dead["event_type"] as? String)
            print("outbox retry: the running daemon delivered the retried dead letter after \(elapsed)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

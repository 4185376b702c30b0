import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// Issue 32 §4 with the real binary: `outbox drop` of a delivery whose attempt is on the wire is refused, saying so;
/// once the receiver has answered, the row is delivered and a drop says that instead.
@Suite("outbox drop of a delivery in flight", .timeLimit(.minutes(10)), .endToEndSlot)
struct OutboxInFlightTests {
    static let domain = "shop.origin.test"

    @Test("a drop racing a delivery held by a slow receiver is refused, and the receiver's answer is recorded")
    func dropInFlight() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: WebhookEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("a ready check", log: daemon) {
                try await DaemonTests.checks(fixture, domain: Self.domain).last?.verdict == "ready"
            }
            // The receiver holds its answer 15 s (the webhook's timeout is 30 s): the attempt is on the wire.
            var held = FixtureResponse.text(#"{"ok":true}"#)
            held.delay = .seconds(15)
            fixture.receiverAnswers.withLock { $0 = [held] }
            fixture.origin.withLock { $0 = (404, "not here") }
            try await receiver.waitUntil("the alert's delivery arrived", timeout: .seconds(120)) { activity in
                activity.requests.contains { $0.uri == "/standard" }
            }
            let list = try await MonitorBinary.run(["outbox", "list", "--json", "--config", fixture.configPath])
            let object = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any]
            let row = try #require((object?["deliveries"] as? [[String: Any]])?.first, "\(list.output)")
            let id = try #require(row["id"] as? Int)

            let drop = try await MonitorBinary.run(["outbox", "drop", "\(id)", "--config", fixture.configPath])
            #expect(drop.status == 1, "\(drop.output)")
            #expect(drop.error.contains("delivery \(id) ("), "\(drop.error)")
            #expect(drop.error.contains("is being sent right now"), "\(drop.error)")
            #expect(!drop.output.contains("dropped"), "\(drop.output)")
            let retry = try await MonitorBinary.run(["outbox", "retry", "\(id)", "--config", fixture.configPath])
            #expect(retry.status == 1 && retry.error.contains("is being sent right now"), "\(retry.error)")

            // The receiver answers: the row is delivered, and a drop now says so.
            try await eventually("the held delivery recorded as delivered", timeout: .seconds(120), log: daemon) {
                let again = try await MonitorBinary.run([
                    "outbox", "drop", "\(id)", "--config", fixture.configPath,
                ])
                return again.status == 1 && again.error.contains("was delivered")
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

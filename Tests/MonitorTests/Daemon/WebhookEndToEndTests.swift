import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The real daemon alerting a fixture webhook receiver: one firing and one resolved per problem, retries that
/// keep their id, dead letter on 400, redelivery after kill -9, signatures checked by Python.
@Suite("webhooks end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct WebhookEndToEndTests {
    static let domain = "shop.origin.test"
    static let alerts = "alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0 }\n"

    /// The standard deliveries received so far: (webhook-id, parsed body, request).
    static func standardDeliveries(
        _ receiver: FixtureServer
    ) -> [(id: String, body: [String: Any], request: RecordedRequest)] {
        receiver.requests.filter { $0.uri == "/standard" }.compactMap { request in
            guard let id = request.headerValues("webhook-id").first,
                let body = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            else { return nil }
            return (id, body, request)
        }
    }

    static func deliveries(
        _ receiver: FixtureServer, type: String, code: String
    ) -> [(id: String, body: [String: Any], request: RecordedRequest)] {
        standardDeliveries(receiver).filter { $0.body["type"] as? String == type && $0.body["code"] as? String == code }
    }

    /// Starts the daemon on a domain whose origin answers 404, alerting the standard webhook at the first failure.
    static func startBroken(
        _ fixture: DaemonFixture, origin: FixtureServer, cdn: FixtureServer, receiver: FixtureServer, caFile: String
    ) throws -> RunningMonitor {
        fixture.origin.withLock { $0 = (404, "") }
        try fixture.writeConfiguration(
            domains: [domain], origin: origin, cdn: cdn, caFile: caFile,
            extra: alerts + fixture.webhooksSection(receiver: receiver, caFile: caFile))
        return try fixture.startDaemon()
    }

    @Test("a domain breaking gives one firing per webhook and fixing it one resolved, in all four formats")
    func fireAndResolve() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts
                    + fixture.webhooksSection(
                        receiver: receiver, caFile: ca, formats: ["standard", "slack", "discord", "teams"]))
            let daemon = try fixture.startDaemon()
            try await eventually("a first ready check", log: daemon) {
                try await DaemonTests.checks(fixture).last?.verdict == "ready"
            }
            let broke = Date()
            fixture.origin.withLock { $0 = (404, "") }
            try await eventually("origin.status firing delivered", log: daemon) {
                !Self.deliveries(receiver, type: "alert.firing", code: "origin.status").isEmpty
                    && receiver.requests.filter { $0.uri == "/teams" }.count >= 1
            }
            let latency = Date().timeIntervalSince(broke)
            fixture.origin.withLock { $0 = (200, DaemonFixture.version1) }
            try await eventually("origin.status resolved delivered", log: daemon) {
                !Self.deliveries(receiver, type: "alert.resolved", code: "origin.status").isEmpty
            }
            // Let a few more checks pass: nothing more may arrive for this problem.
            let checks = try await DaemonTests.checks(fixture).count
            try await eventually("two more checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= checks + 2
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            // Each delivery once (a retry after a slow answer repeats its id, which receivers drop).
            var seen: Set<String> = []
            let firing = Self.deliveries(receiver, type: "alert.firing", code: "origin.status")
                .filter { $0.body["source"] as? String == "origin.well-known" && seen.insert($0.id).inserted }
            let resolved = Self.deliveries(receiver, type: "alert.resolved", code: "origin.status")
                .filter { $0.body["source"] as? String == "origin.well-known" && seen.insert($0.id).inserted }
            #expect(firing.count == 1)
            #expect(resolved.count == 1)
            #expect(firing.first?.body["domain"] as? String == Self.domain)
            #expect(firing.first?.body["verdict"] as? String == "origin_broken")
            #expect(firing.first?.body["version"] as? Int == 2)
            #expect(firing.first?.body["incident"] as? String == firing.first?.body["event_id"] as? String)
            #expect(resolved.first?.body["incident"] as? String == firing.first?.body["incident"] as? String)
            #expect(firing.first?.id != resolved.first?.id)
            for format in ["slack", "discord", "teams"] {
                // People get one message when it broke and one when it was fixed, whatever the alert count: one
                // digest per domain per check (`DomainLedger.deliveries`), at the check that fired and the one that
                // resolved, each one outbox row. Chat bodies carry no id, and a resend (at least once) repeats its
                // row's bytes: distinct bodies, not requests.
                #expect(try fixture.queuedDeliveries(webhook: "\(format)-hook") == 2, "\(format)")
                let bodies = receiver.distinctBodies(to: "/\(format)")
                #expect(bodies.count == 2, "\(format): \(bodies)")
                for body in bodies {
                    #expect(
                        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) != nil, "\(format) body is not JSON")
                }
            }
            print(
                "alert latency: origin broke → receiver got alert.firing in \(String(format: "%.2f", latency)) s (interval 1 s)"
            )
        }
    }

    @Test("a receiver answering 503 for a while still gets every event, once per id, with valid signatures")
    func retriesKeepTheirID() async throws {
        let fixture = try DaemonFixture()
        let unavailable = FixtureResponse(
            status: 503, headers: [("Retry-After", "1")], body: .bytes(Array("busy".utf8)))
        fixture.receiverAnswers.withLock { $0 = [unavailable, unavailable, unavailable, .text("ok")] }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            let daemon = try Self.startBroken(fixture, origin: origin, cdn: cdn, receiver: receiver, caFile: ca)
            try await eventually("the firing delivered after the 503s", log: daemon) {
                guard Self.standardDeliveries(receiver).count >= 4 else { return false }
                let counts = try await StoreReader.openReadOnly(directory: fixture.stateDirectory).outboxCounts()
                return counts == OutboxCounts(pending: 0, retrying: 0, dead: 0)
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            let deliveries = Self.standardDeliveries(receiver)
            let byID = Dictionary(grouping: deliveries, by: \.id)
            // Each event has one id; the retries of one event reuse it, and each body says the same thing.
            for (id, attempts) in byID {
                #expect(Set(attempts.map { $0.body["event_id"] as? String ?? "" }).count == 1, "\(id)")
                #expect(attempts.allSatisfy { $0.body["id"] as? String == id })
            }
            #expect(byID.values.contains { $0.count >= 2 }, "no delivery was retried")
            for delivery in deliveries {
                let request = delivery.request
                let timestamp = try #require(request.headerValues("webhook-timestamp").first)
                let signature = try #require(request.headerValues("webhook-signature").first)
                let expected = try StandardWebhooksVerifier.signature(
                    secret: DaemonFixture.secret, id: delivery.id, timestamp: timestamp, body: request.body)
                #expect(signature == expected)
            }
        }
    }

    @Test("a 400 goes to dead letter without retries, and status shows it")
    func deadLetter() async throws {
        let fixture = try DaemonFixture()
        fixture.receiverAnswers.withLock { $0 = [FixtureResponse(status: 400, body: .bytes(Array("bad".utf8)))] }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            let daemon = try Self.startBroken(fixture, origin: origin, cdn: cdn, receiver: receiver, caFile: ca)
            try await eventually("deliveries dead-lettered", log: daemon) {
                let counts = try await StoreReader.openReadOnly(directory: fixture.stateDirectory).outboxCounts()
                return counts.dead >= 1 && counts.pending == 0 && counts.retrying == 0
            }
            let checks = try await DaemonTests.checks(fixture).count
            try await eventually("two more checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= checks + 2
            }
            let deliveries = Self.standardDeliveries(receiver)
            #expect(Dictionary(grouping: deliveries, by: \.id).values.allSatisfy { $0.count == 1 })
            let status = try await DaemonTests.statusJSON(fixture)
            let outbox = try #require(status["outbox"] as? [String: Any])
            #expect(outbox["dead"] as? Int == deliveries.count)
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("a daemon killed while a delivery is in flight sends it again, with the same id, after restart")
    func redeliveryAfterKill() async throws {
        let fixture = try DaemonFixture()
        fixture.receiverAnswers.withLock { $0 = [.never, .text("ok")] }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            let daemon = try Self.startBroken(fixture, origin: origin, cdn: cdn, receiver: receiver, caFile: ca)
            try await eventually("a delivery in flight", log: daemon) { !Self.standardDeliveries(receiver).isEmpty }
            let first = try #require(Self.standardDeliveries(receiver).first)
            daemon.send(SIGKILL)
            _ = try await daemon.waitForExit()
            let restarted = try fixture.startDaemon()
            try await eventually("the same delivery sent again", log: restarted) {
                Self.standardDeliveries(receiver).filter { $0.id == first.id }.count >= 2
            }
            restarted.send(SIGTERM)
            #expect(try await restarted.waitForExit() == 0)
            #expect(
                Self.standardDeliveries(receiver).filter { $0.id == first.id }.allSatisfy {
                    $0.body["event_id"] as? String == first.body["event_id"] as? String
                })
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The real daemon, fixture origins that misbehave, and what the people and programs behind webhooks receive.
@Suite("incidents end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct IncidentEndToEndTests {
    static let domain = "shop.origin.test"
    static let alerts = "alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0 }\n"

    /// The chat messages posted to `path`, each once: chat bodies carry no id, and a resend (delivery is at least
    /// once) repeats its outbox row's bytes.
    static func messages(_ receiver: FixtureServer, _ path: String) -> [String] {
        receiver.distinctBodies(to: path)
    }

    /// The standard webhook's bodies, once per `webhook-id`, as JSON objects.
    static func standardBodies(_ receiver: FixtureServer) -> [[String: Any]] {
        receiver.uniqueDeliveries(to: "/standard").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
        }
    }

    static func standardTypes(_ receiver: FixtureServer) -> [(type: String, code: String)] {
        standardBodies(receiver).compactMap { body in
            guard let type = body["type"] as? String, let code = body["code"] as? String else { return nil }
            return (type, code)
        }
    }

    @Test("a WAF blocking Apple's fetcher is exactly one chat message, naming the block with Apple's miss under it")
    func wafBlock() async throws {
        let fixture = try DaemonFixture()
        fixture.blocksApple.withLock { $0 = true }
        fixture.cdn.withLock {
            $0 = (404, "", [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden")])
        }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["standard", "slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("six checks", log: daemon) { try await DaemonTests.checks(fixture).count >= 6 }
            try await eventually("the chat message", log: daemon) { !Self.messages(receiver, "/slack").isEmpty }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            // One message: the alert fires once (failure_threshold 1, repeat_after 0: no reminder), and a check's
            // alerts and Apple's miss caused by the block go into one digest per domain (`DomainLedger.deliveries`),
            // one outbox row. A resend of that row is the same message, so the receiver's distinct bodies count.
            #expect(try fixture.queuedDeliveries(webhook: "slack-hook") == 1)
            let chat = Self.messages(receiver, "/slack")
            #expect(chat.count == 1, "\(chat)")
            let text = try #require(chat.first)
            #expect(text.contains("origin.bot_blocked"))
            #expect(text.contains("because of it: cdn.missing"))
            #expect(text.contains("SWCERR00101"))
            let alerts = Self.standardTypes(receiver).filter { $0.type == "alert.firing" }.map(\.code)
            #expect(alerts == ["origin.bot_blocked"])
        }
    }

    @Test("a .well-known 500 with the root path fine is one alert, origin.root_only its consequence (issue 35 item 12)")
    func rootOnlyIsAConsequence() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (500, "oops") }
        fixture.root.withLock { $0 = (200, DaemonFixture.version1) }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("the alert sent", log: daemon) {
                Self.standardTypes(receiver).contains { $0.type == "alert.firing" }
            }
            let seen = try await DaemonTests.checks(fixture).count
            try await eventually("three more checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= seen + 3
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            let alerts = Self.standardTypes(receiver).filter { $0.type == "alert.firing" }.map(\.code)
            #expect(alerts == ["origin.status"])
            let body = try #require(Self.standardBodies(receiver).first { $0["type"] as? String == "alert.firing" })
            let consequences = body["consequences"] as? [String] ?? []
            #expect(consequences.contains { $0.hasPrefix("origin.root_only") }, "\(body)")
        }
    }

    @Test("a CDN copy minutes behind sends no chat message by default; a webhook asking for warnings gets one")
    func staleInsideBudget() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (200, DaemonFixture.version2) }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            let warnings = """
                  - name: warnings
                    url: https://localhost:\(receiver.port)/warnings
                    format: discord
                    ca_file: \(ca)
                    timeout: \(DaemonFixture.patientTimeout)
                    min_severity: warning

                """
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["slack"])
                    + warnings)
            let daemon = try fixture.startDaemon()
            try await eventually("the warning for the webhook that asked", log: daemon) {
                !Self.messages(receiver, "/warnings").isEmpty
            }
            let seen = try await DaemonTests.checks(fixture).count
            try await eventually("three more checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= seen + 3
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(Self.messages(receiver, "/slack").isEmpty)
            // One message: the cdn.stale warning fires once and is one digest, one outbox row (see wafBlock).
            #expect(try fixture.queuedDeliveries(webhook: "warnings") == 1)
            let warning = Self.messages(receiver, "/warnings")
            #expect(warning.count == 1, "\(warning)")
            #expect(warning.first?.contains("cdn.stale") == true)
        }
    }

    @Test("Apple's CDN unreachable for every domain is one monitor alert and no domain alert, resolved when it answers")
    func cdnUnreachable() async throws {
        let fixture = try DaemonFixture()
        let domains = ["a.origin.test", "b.origin.test", "c.origin.test"]
        fixture.cdn.withLock { $0 = (503, "busy", []) }
        try await fixture.withServers(domains: domains) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: domains, origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("monitor.firing delivered", log: daemon) {
                Self.standardTypes(receiver).contains { $0.type == "monitor.firing" }
            }
            let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
            #expect(status.output.contains("monitor: monitor.cdn_unreachable"), "\(status.output)")
            let seen = try await DaemonTests.checks(fixture, domain: domains[0]).count
            try await eventually("more checks while the CDN is down", log: daemon) {
                try await DaemonTests.checks(fixture, domain: domains[0]).count >= seen + 2
            }
            fixture.cdn.withLock { $0 = (200, DaemonFixture.version1, DaemonFixture.appleHeaders) }
            try await eventually("monitor.resolved delivered", log: daemon) {
                Self.standardTypes(receiver).contains { $0.type == "monitor.resolved" }
            }
            try await eventually("every domain ready with Apple's copy in sync", log: daemon) {
                for domain in domains
                where try await DaemonTests.checks(fixture, domain: domain).last?.verdict != "ready" {
                    return false
                }
                return true
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            let events = Self.standardTypes(receiver)
            #expect(events.filter { $0.type == "monitor.firing" }.map(\.code) == ["monitor.cdn_unreachable"])
            #expect(events.filter { $0.type == "monitor.resolved" }.count == 1)
            #expect(!events.contains { $0.type == "alert.firing" }, "\(events)")
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// Issue 25 item 1 with the real daemon: silences added with `aasa-monitor silence`, running or stopped.
@Suite("silences end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct SilenceEndToEndTests {
    static let domain = "shop.origin.test"
    static let alerts = "alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0 }\n"

    static func alertEvents(_ receiver: FixtureServer) -> [String] {
        IncidentEndToEndTests.standardTypes(receiver).map(\.type).filter { $0.hasPrefix("alert.") }
    }

    static func silence(_ fixture: DaemonFixture, _ arguments: [String]) async throws -> String {
        let run = try await MonitorBinary.run(["silence"] + arguments + ["--config", fixture.configPath])
        #expect(run.status == 0, "\(run.output) \(run.error)")
        return run.output
    }

    @Test("a silence added while stopped holds at start; the alert still firing at its end is sent once")
    func brokenThroughSilence() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let added = try await Self.silence(
                fixture, ["add", Self.domain, "--for", "1h", "--reason", "moving the CDN", "--author", "alice"])
            #expect(added.contains("silence 1: \(Self.domain) silenced until"), "\(added)")
            let daemon = try fixture.startDaemon()
            try await eventually("four broken checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= 4
            }
            #expect(try await DaemonTests.checks(fixture).last?.verdict == "origin_broken")
            let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
            #expect(status.output.contains("silenced until"), "\(status.output)")
            #expect(status.output.contains("by alice: moving the CDN"), "\(status.output)")
            #expect(status.output.contains("alert origin.status"), "\(status.output)")
            let list = try await Self.silence(fixture, ["list", "--json"])
            #expect(list.contains(#""author":"alice""#) || list.contains(#""author" : "alice""#), "\(list)")
            #expect(Self.alertEvents(receiver).isEmpty)

            _ = try await Self.silence(fixture, ["expire", "1"])
            try await eventually("the alert sent once the silence ended", log: daemon) {
                !Self.alertEvents(receiver).isEmpty
            }
            let seen = try await DaemonTests.checks(fixture).count
            try await eventually("three more checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= seen + 3
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(Self.alertEvents(receiver) == ["alert.firing"])
        }
    }

    @Test("a break and recovery inside a silence added while running send nothing, during it or after")
    func breakAndRecoverInside() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["standard", "slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("a ready check", log: daemon) {
                try await DaemonTests.checks(fixture).last?.verdict == "ready"
            }
            _ = try await Self.silence(fixture, ["add", Self.domain, "--for", "1h", "--reason", "planned"])
            // The silence counts from the next check on: let one pass before breaking the origin.
            let before = try await DaemonTests.checks(fixture).count
            try await eventually("a check after the silence", log: daemon) {
                try await DaemonTests.checks(fixture).count >= before + 1
            }
            fixture.origin.withLock { $0 = (404, "not here") }
            try await eventually("the origin seen broken", log: daemon) {
                try await DaemonTests.checks(fixture).last?.verdict == "origin_broken"
            }
            try await eventually("the alert firing in status", log: daemon) {
                try await MonitorBinary.run(["status", "--config", fixture.configPath]).output.contains("firing")
            }
            fixture.origin.withLock { $0 = (200, DaemonFixture.version1) }
            try await eventually("the origin ready again", log: daemon) {
                try await DaemonTests.checks(fixture).last?.verdict == "ready"
            }
            _ = try await Self.silence(fixture, ["expire", "1"])
            let seen = try await DaemonTests.checks(fixture).count
            try await eventually("three checks after the silence ended", log: daemon) {
                try await DaemonTests.checks(fixture).count >= seen + 3
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(Self.alertEvents(receiver).isEmpty)
            #expect(IncidentEndToEndTests.messages(receiver, "/slack").isEmpty)
        }
    }
    @Test("an alert sent, then silenced, that resolves inside the silence sends alert.resolved (issue 35 item 3)")
    func toldAlertResolvesInside() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["standard", "slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("the alert sent", log: daemon) { Self.alertEvents(receiver) == ["alert.firing"] }
            _ = try await Self.silence(fixture, ["add", Self.domain, "--for", "1h", "--reason", "fixing it"])
            let before = try await DaemonTests.checks(fixture).count
            try await eventually("a check after the silence", log: daemon) {
                try await DaemonTests.checks(fixture).count >= before + 1
            }
            fixture.origin.withLock { $0 = (200, DaemonFixture.version1) }
            try await eventually("the resolution sent during the silence", log: daemon) {
                Self.alertEvents(receiver) == ["alert.firing", "alert.resolved"]
            }
            try await eventually("Slack told it recovered", log: daemon) {
                IncidentEndToEndTests.messages(receiver, "/slack").contains { $0.contains("Recovered") }
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(Self.alertEvents(receiver) == ["alert.firing", "alert.resolved"])
            // Issue 35 item 11: the resolution says what holds again; what failed stays in detail.problem.
            let bodies = IncidentEndToEndTests.standardBodies(receiver)
            let firing = try #require(bodies.first { $0["type"] as? String == "alert.firing" })
            let resolved = try #require(bodies.first { $0["type"] as? String == "alert.resolved" })
            #expect(resolved["message"] as? String == "The origin serves the file as Apple needs it again.")
            #expect(resolved["message"] as? String != firing["message"] as? String)
            let problem = (resolved["detail"] as? [String: Any])?["problem"] as? String
            #expect(problem == firing["message"] as? String)
        }
    }

    @Test("an open maintenance window of the configuration sends nothing, and status names it")
    func maintenanceWindow() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: Self.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca)
                    + "maintenance:\n  - {name: always, start: \"00:00\", duration: 2d}\n")
            let daemon = try fixture.startDaemon()
            try await eventually("four broken checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= 4
            }
            let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
            #expect(status.output.contains("by configuration: maintenance window always"), "\(status.output)")
            let list = try await Self.silence(fixture, ["list"])
            #expect(list.contains("maintenance:always  active"), "\(list)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(Self.alertEvents(receiver).isEmpty)
        }
    }
}

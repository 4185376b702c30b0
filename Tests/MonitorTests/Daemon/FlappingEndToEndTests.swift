import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorEndpoint
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// Issue 23 items 8 and 13 with the real daemon: an origin that keeps failing and recovering is flapping, and people
/// are told so in words (the chat message, `status`); `history` says why the verdict changed and when alerts fired
/// and resolved.
@Suite("flapping and history end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct FlappingEndToEndTests {
    static let domain = "flap.origin.test"

    /// The standard webhook's events so far, as (type, code).
    static func standardEvents(_ receiver: FixtureServer) -> [(type: String, code: String)] {
        IncidentEndToEndTests.standardTypes(receiver)
    }

    @Test("the third firing within the hour reads as flapping in chat, and status says until when it is held open")
    func flappingInWords() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: IncidentEndToEndTests.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["standard", "slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("a first check", log: daemon) {
                try await DaemonTests.checks(fixture, domain: Self.domain).count >= 1
            }
            // Fail and recover three times: the third firing within the flap window (1 h) is flapping.
            for round in 1...3 {
                fixture.origin.withLock { $0 = (500, "") }
                try await eventually("firing #\(round)", log: daemon) {
                    Self.standardEvents(receiver).filter { $0.type == "alert.firing" }.count >= round
                }
                fixture.origin.withLock { $0 = (200, DaemonFixture.version1) }
                if round < 3 {
                    try await eventually("resolved #\(round)", log: daemon) {
                        Self.standardEvents(receiver).filter { $0.type == "alert.resolved" }.count >= round
                    }
                }
            }
            // Passing now, but held open: status says until when.
            var statusText = ""
            try await eventually("status shows the alert resolving, held open", log: daemon) {
                statusText = try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
                return statusText.contains("alert origin.status [origin.well-known]: resolving since")
            }
            #expect(statusText.contains("flapping (fired 3 times within 1h): held open until "), "\(statusText)")
            #expect(statusText.contains("unless it fails again before"), "\(statusText)")
            let json = try await DaemonTests.statusJSON(fixture)
            let domain = try #require((json["domains"] as? [[String: Any]])?.first)
            let alert = try #require(
                (domain["alerts"] as? [[String: Any]])?.first { $0["code"] as? String == "origin.status" })
            #expect(alert["flapping"] as? Bool == true)
            #expect(alert["state"] as? String == "resolving")
            #expect(alert["held_until"] is String)
            #expect(alert["passing_since"] is String)

            let history = try await MonitorBinary.run(["history", Self.domain, "--config", fixture.configPath])
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            // The journal says each firing once (with its event id), though `history` records it too.
            let logged = daemon.standardError.split(separator: "\n").filter {
                $0.contains("scheduler: alert.firing ")
            }
            #expect(logged.count == 3, "\(logged)")

            // The pages say it too: the overview's open alerts, the domain page's alerts with the hold.
            let pages = StatusPageReader(store: try StoreReader.openReadOnly(directory: fixture.stateDirectory))
            let overview = try await pages.overview(now: Date(), configured: [Self.domain], lastCycle: nil).html()
            #expect(overview.contains("origin.status resolving (flapping)"), "\(overview)")
            let page = try #require(try await pages.domain(Self.domain, now: Date(), configured: true)).html()
            #expect(page.contains("flapping (fired 3 times within 1h): held open until "), "\(page)")

            let chat = IncidentEndToEndTests.messages(receiver, "/slack")
            let flapping = try #require(chat.last { $0.contains("Failing again, flapping") }, "\(chat)")
            #expect(flapping.contains("Flapping: it fired 3 times within 1h, so it stays open until it has passed"))
            // The first firings read as plain failures: nothing says flapping before it is.
            #expect(chat.filter { $0.contains("Flapping") }.count == 1, "\(chat)")

            // History: why each verdict changed, and every alert firing and resolving.
            let lines = history.output.split(separator: "\n").map(String.init)
            #expect(
                lines.contains {
                    $0.contains("verdict.changed from=ready to=origin_broken because=origin.status")
                }, "\(history.output)")
            #expect(
                lines.contains { $0.contains("verdict.changed from=origin_broken to=ready cleared=origin.status") },
                "\(history.output)")
            let firings = lines.filter {
                $0.contains("alert.firing code=origin.status source=origin.well-known severity=error")
            }
            #expect(firings.count == 3, "\(history.output)")
            #expect(firings.last?.hasSuffix("flapping=true") == true, "\(history.output)")
            #expect(
                lines.filter { $0.contains("alert.resolved code=origin.status") }.count == 2, "\(history.output)")
        }
    }
}

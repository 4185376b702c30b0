import EndToEndSlot
import Foundation
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// Issue 35 item 1 with the real daemon: `status`, `status --json` and the page show, per alert, the silences that
/// mute it, and nothing on alerts no silence covers.
@Suite("silences shown where they apply", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct SilenceShownTests {
    static let domain = "shop.origin.test"

    static func alerts(_ json: String) throws -> (domain: [String: Any], alerts: [[String: Any]]) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let domain = try #require((root["domains"] as? [[String: Any]])?.first)
        return (domain, domain["alerts"] as? [[String: Any]] ?? [])
    }

    @Test("a silence of cdn.stale over every domain is not shown on an origin_broken domain; a domain silence is")
    func codeSilenceStaysOnItsCode() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: SilenceEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            _ = try await SilenceEndToEndTests.silence(
                fixture, ["add", "--all", "--code", "cdn.stale", "--for", "1h", "--reason", "known lag"])
            let daemon = try fixture.startDaemon()
            try await eventually("the origin.status alert firing", log: daemon) {
                try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
                    .contains("alert origin.status [origin.well-known]: firing")
            }
            let text = try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
            #expect(!text.contains("known lag"), "\(text)")
            #expect(!text.contains("silenced"), "\(text)")
            var json = try Self.alerts(
                try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath]).output)
            #expect(json.domain["silenced"] is NSNull)
            #expect(json.alerts.allSatisfy { ($0["silenced_by"] as? [Any])?.isEmpty == true }, "\(json.alerts)")

            _ = try await SilenceEndToEndTests.silence(
                fixture, ["add", Self.domain, "--for", "2h", "--reason", "moving hosts", "--author", "alice"])
            let shown = try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
            #expect(shown.contains("nothing about it is sent: silenced until"), "\(shown)")
            #expect(shown.contains("by alice: moving hosts (silence 2)"), "\(shown)")
            #expect(!shown.contains("known lag"), "\(shown)")
            json = try Self.alerts(
                try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath]).output)
            #expect((json.domain["silenced"] as? [String: Any])?["reason"] as? String == "moving hosts")
            let firing = try #require(json.alerts.first { $0["code"] as? String == "origin.status" })
            let by = (firing["silenced_by"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
            #expect(by == ["moving hosts"])

            let summary = try await MonitorBinary.run(["status", "--config", fixture.configPath]).output
            #expect(summary.contains("silence 1 over every domain"), "\(summary)")
            #expect(summary.contains("not sent: silenced until"), "\(summary)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

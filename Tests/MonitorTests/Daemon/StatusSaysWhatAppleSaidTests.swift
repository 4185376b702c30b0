import EndToEndSlot
import Foundation
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// Issue 35 item 9 with the real daemon: with no valid origin file to compare with, `status` still says what
/// Apple's CDN said (no copy since when, or the copy it serves) instead of "unknown" with every field null.
@Suite("status says what Apple said", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct StatusSaysWhatAppleSaidTests {
    static let domain = "shop.origin.test"

    static func cdn(_ fixture: DaemonFixture) async throws -> [String: Any] {
        let run = try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let domain = try #require((root["domains"] as? [[String: Any]])?.first)
        return try #require(domain["cdn"] as? [String: Any])
    }

    @Test("origin broken, Apple answering 404: no copy since …; Apple still serving an old copy: serves a copy")
    func brokenOrigin() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        fixture.cdn.withLock { $0 = (404, "", DaemonFixture.appleHeaders) }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("two checks", log: daemon) { try await DaemonTests.checks(fixture).count >= 2 }
            var text = try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
            #expect(text.contains("cdn: no copy (Apple answers 404) since"), "\(text)")
            #expect(!text.contains("cdn: unknown"), "\(text)")
            var json = try await Self.cdn(fixture)
            #expect(json["missing_since"] is String, "\(json)")
            #expect(json["last_answer"] is String, "\(json)")

            fixture.cdn.withLock { $0 = (200, DaemonFixture.version1, DaemonFixture.appleHeaders) }
            try await eventually("Apple's copy seen", log: daemon) {
                try await Self.cdn(fixture)["copy_hash"] is String
            }
            text = try await MonitorBinary.run(["status", Self.domain, "--config", fixture.configPath]).output
            #expect(text.contains("cdn: serves a copy (sha256:"), "\(text)")
            json = try await Self.cdn(fixture)
            #expect(json["missing_since"] is NSNull, "\(json)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

/// Issue 35 item 10 with the real daemon: Apple's CDN failing for one domain while it answers for the others is
/// that domain's own alert after `cdn.lone_failure_after`, instead of a promise of a monitor alert that never comes.
@Suite("a lone CDN failure alerts", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct LoneCDNFailureEndToEndTests {
    @Test("503 for one domain of two: cdn.unreachable fires for it alone, no monitor.cdn_unreachable")
    func loneFailure() async throws {
        let fixture = try DaemonFixture()
        let lone = "lone.origin.test"
        let fine = "fine.origin.test"
        fixture.cdnFor.withLock { $0[lone] = (503, "busy", []) }
        try await fixture.withServers(domains: [lone, fine]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [lone, fine], origin: origin, cdn: cdn, caFile: ca, cdnSettings: "lone_failure_after: 3s",
                extra: SilenceEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("the lone failure alerted", log: daemon) {
                IncidentEndToEndTests.standardTypes(receiver).contains {
                    $0.type == "alert.firing" && $0.code == "cdn.unreachable"
                }
            }
            let status = try await MonitorBinary.run(["status", lone, "--config", fixture.configPath]).output
            #expect(status.contains("error cdn.unreachable [cdn]"), "\(status)")
            #expect(status.contains("while it answers for the others"), "\(status)")
            fixture.cdnFor.withLock { $0 = [:] }
            try await eventually("the alert resolved once Apple answers", log: daemon) {
                IncidentEndToEndTests.standardTypes(receiver).contains {
                    $0.type == "alert.resolved" && $0.code == "cdn.unreachable"
                }
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            let types = IncidentEndToEndTests.standardTypes(receiver)
            #expect(!types.contains { $0.code == "monitor.cdn_unreachable" }, "\(types)")
            let firings = types.filter { $0.type == "alert.firing" }.map(\.code)
            #expect(firings == ["cdn.unreachable"], "\(firings)")
        }
    }
}

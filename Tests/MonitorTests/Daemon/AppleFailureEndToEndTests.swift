import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// `origin.apple_failure` with the real daemon: Apple's diagnosis of an origin is only seen through Apple's CDN, so
/// a check in which the CDN fails itself (5xx, no usable answer) cannot say the diagnosis is gone.
@Suite("Apple's diagnosis end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct AppleFailureEndToEndTests {
    static let domain = "shop.origin.test"
    static let appleSays403: (Int, String, [(String, String)]) = (
        404, "",
        [
            ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
            ("Cache-Control", "max-age=2"), ("Age", "1"),
        ]
    )

    /// Checks of `domain` recorded with `verdict`.
    static func checks(_ fixture: DaemonFixture, verdict: String) async throws -> Int {
        try await DaemonTests.checks(fixture, domain: domain).runs.filter { $0.verdict == verdict }.reduce(0) {
            $0 + $1.checks
        }
    }

    @Test("an outage of Apple's CDN holds origin.apple_failure: no resolve, no second firing when Apple answers again")
    func outageHoldsDiagnosis() async throws {
        let fixture = try DaemonFixture()
        fixture.cdn.withLock { $0 = Self.appleSays403 }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: IncidentEndToEndTests.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["standard", "slack"]))
            let daemon = try fixture.startDaemon()
            try await eventually("origin.apple_failure firing", log: daemon) {
                IncidentEndToEndTests.standardTypes(receiver).contains {
                    $0.type == "alert.firing" && $0.code == "origin.apple_failure"
                }
            }
            // Apple's CDN answers 503 for a few checks: it says nothing about the origin, nor about Apple's view.
            fixture.cdn.withLock { $0 = (503, "Service Unavailable", []) }
            try await eventually("three checks while Apple's CDN answers 503", log: daemon) {
                try await Self.checks(fixture, verdict: "unknown") >= 3
            }
            fixture.cdn.withLock { $0 = Self.appleSays403 }
            let broken = try await Self.checks(fixture, verdict: "origin_broken")
            try await eventually("two checks with Apple's diagnosis again", log: daemon) {
                try await Self.checks(fixture, verdict: "origin_broken") >= broken + 2
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            let alerts = IncidentEndToEndTests.standardTypes(receiver).filter { $0.code == "origin.apple_failure" }
            #expect(alerts.map(\.type) == ["alert.firing"], "\(alerts)")
            // The monitor's own `monitor.cdn_unreachable` may fire and resolve; the domain's incident stays open.
            let chat = IncidentEndToEndTests.messages(receiver, "/slack").filter { $0.contains(Self.domain) }
            #expect(chat.count == 1, "\(chat)")
            #expect(!chat.contains { $0.contains("Resolved") || $0.contains("recovered") }, "\(chat)")
        }
    }
}

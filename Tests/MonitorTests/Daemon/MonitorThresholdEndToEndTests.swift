import EndToEndSlot
import Foundation
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// `monitor.cdn_unreachable` with the real daemon fires at the 3rd check in a row that cannot reach Apple's CDN, as
/// the documentation says, even with one domain (it used to fire at the first).
@Suite("monitor thresholds end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct MonitorThresholdEndToEndTests {
    @Test("one domain, Apple's CDN answering 503: monitor.cdn_unreachable after 3 checks, not 1")
    func cdnUnreachableAfterThree() async throws {
        let fixture = try DaemonFixture()
        let domain = "solo.origin.test"
        fixture.cdn.withLock { $0 = (503, "busy", []) }
        try await fixture.withServers(domains: [domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [domain], origin: origin, cdn: cdn, caFile: ca,
                extra: IncidentEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            let daemon = try fixture.startDaemon()
            try await eventually("monitor.firing delivered", log: daemon) {
                IncidentEndToEndTests.standardTypes(receiver).contains { $0.type == "monitor.firing" }
            }
            let checks = try await DaemonTests.checks(fixture, domain: domain).count
            #expect(checks >= 3, "fired after \(checks) checks")
            let firing = IncidentEndToEndTests.messages(receiver, "/standard").first { $0.contains("monitor.firing") }
            #expect(firing?.contains("the last 3 checks got no answer") == true, "\(firing ?? "none")")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// The real daemon with Apple's headers at their extremes: the domain is recorded and shown like any other.
@Suite("daemon hostile numbers", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct HostileNumbersDaemonTests {
    static let domain = "shop.origin.test"

    @Test("Apple-Failure-Details {\"b\":1e999} and max-age=999999999999: the domain is recorded and in status")
    func recorded() async throws {
        let fixture = try DaemonFixture()
        fixture.cdn.withLock {
            $0 = (
                404, "",
                [
                    ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                    ("Apple-Failure-Details", #"{"b":1e999}"#), ("Cache-Control", "max-age=999999999999"),
                    ("Age", "99999999999999999999"),
                ]
            )
        }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("checks recorded", log: daemon) { try await DaemonTests.checks(fixture).count >= 2 }
            #expect(!daemon.standardError.contains("could not be recorded"), "\(daemon.standardError.suffix(2000))")
            let status = try await DaemonTests.statusJSON(fixture)
            let domains = try #require(status["domains"] as? [[String: Any]])
            #expect(domains.map { $0["domain"] as? String } == [Self.domain])
            let cdnState = try #require(domains.first?["cdn"] as? [String: Any])
            let refresh = cdnState["expected_refresh"] as? String
            #expect(refresh == nil || refresh!.hasPrefix("20"), "\(String(describing: refresh))")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 32 §7 with the real binary: times and keys a person would not mean get a clear error, through the API and
/// the configuration, and nothing is stored.
@Suite("times and keys a person would not mean", .timeLimit(.minutes(10)), .endToEndSlot)
struct HostileTimesTests {
    static let domain = "shop.origin.test"

    @Test("the API refuses impossible ends_at, one beyond 100 years and duplicate keys, naming the field")
    func apiRefusals() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h")
            let daemon = try fixture.startDaemon()
            try await daemon.waitForLog("endpoint listening")
            let address = try StatusPageBrowserTests.listenAddress(daemon)
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            let refusals: [(String, String)] = [
                (#"{"all": true, "ends_at": "9999-12-31T23:59:59Z", "reason": "x"}"#, "more than 100 years away"),
                (#"{"all": true, "ends_at": "2030-02-30T00:00:00Z", "reason": "x"}"#, "has 28 days, not 30"),
                (#"{"all": true, "ends_at": "2030-01-01T24:00:00Z", "reason": "x"}"#, "the hour is 00 to 23"),
                (#"{"all": true, "ends_at": "2030-06-30T23:59:60Z", "reason": "x"}"#, "leap seconds are not accepted"),
                (#"{"all": true, "for": "1m", "for": "999d", "reason": "x"}"#, "given more than once"),
                (#"{"all": true, "for": "1m", "reason": "x", "reason": "y"}"#, "given more than once"),
            ]
            for (body, message) in refusals {
                let answer = try await DNSRebindingTests.send(
                    "POST /api/v1/silences HTTP/1.1\r\nHost: \(address)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
                #expect(DNSRebindingTests.status(answer) == 400, "\(body): \(answer.prefix(300))")
                #expect(DNSRebindingTests.body(answer).contains(message), "\(body): \(answer)")
            }
            let listed = DNSRebindingTests.body(
                try await DNSRebindingTests.get("/api/v1/silences", host: address, port: port))
            #expect(listed.contains(#""silences":[]"#), "nothing stored: \(listed)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("config check refuses timezone: UTC+5 at its line, saying to write +05:00 or -05:00")
    func ambiguousZone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-zone-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: path) }
        try "domains: [example.com]\nmaintenance:\n  - start: '22:00'\n    duration: 1h\n    timezone: UTC+5\n".write(
            to: path, atomically: true, encoding: .utf8)
        let check = try await MonitorBinary.run(["config", "check", "--config", path.path])
        #expect(check.status == 1, "\(check.output)\(check.error)")
        let text = check.output + check.error
        #expect(text.contains(":5: maintenance[0].timezone: 'UTC+5' is ambiguous"), "\(text)")
        #expect(text.contains("+05:00 or -05:00"), "\(text)")
    }
}

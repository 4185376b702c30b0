import EndToEndSlot
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 26 §4, "Phishing links in Discord and Teams alerts", with the real daemon: an origin whose app ID reads
/// `[re-authenticate](https://evil.test)` alerts Discord and Teams with the text shown as written, never as a
/// masked link.
@Suite("chat alerts carry origin text as written", .timeLimit(.minutes(10)), .endToEndSlot)
struct ChatPhishingEndToEndTests {
    static let domain = "shop.origin.test"
    static let phishing = "[re-authenticate](https://evil.test)"

    @Test("an app ID holding a markdown link reaches Discord escaped and Teams broken up, and Slack as text")
    func hostileAppID() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            fixture.origin.withLock {
                $0 = (200, #"{"applinks":{"details":[{"appIDs":["\#(Self.phishing)"],"components":[{"/":"/x/*"}]}]}}"#)
            }
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: WebhookEndToEndTests.alerts
                    + fixture.webhooksSection(receiver: receiver, caFile: ca, formats: ["discord", "teams"]))
            let daemon = try fixture.startDaemon()
            func bodies(_ path: String) -> [String] {
                receiver.requests.filter { $0.uri == path }.map { String(decoding: $0.body, as: UTF8.self) }
            }
            try await eventually("discord and teams alerts about the app ID", log: daemon) {
                bodies("/discord").contains { $0.contains("re-authenticate") }
                    && bodies("/teams").contains { $0.contains("re-authenticate") }
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            for body in bodies("/discord") {
                // JSON doubles the backslash: \[re-authenticate\]\(https://evil.test\) on the wire.
                #expect(!body.contains("](") && !body.contains(Self.phishing), "\(body)")
                if body.contains("re-authenticate") {
                    #expect(body.contains(#"\\[re-authenticate\\]\\(https://evil.test\\)"#), "\(body)")
                }
            }
            for body in bodies("/teams") {
                #expect(!body.contains("](") && !body.contains(Self.phishing), "\(body)")
            }
        }
    }
}

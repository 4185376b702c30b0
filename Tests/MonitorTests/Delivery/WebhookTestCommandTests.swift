import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 23 item 17 with the real binary: `webhook test` sends an event about a configured domain, and
/// `config check` warns about plain `http://` receivers and chat URLs written into the file.
@Suite("webhook test and its configuration warnings", .timeLimit(.minutes(10)), .endToEndSlot)
struct WebhookTestCommandTests {
    static let domains = ["shop.origin.test", "other.origin.test"]

    @Test("webhook test sends its event about a configured domain: the first, or the first the webhook hears of")
    func eventAboutConfiguredDomain() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, receiver, ca in
            let section = fixture.webhooksSection(receiver: receiver, caFile: ca)
            try fixture.writeConfiguration(domains: Self.domains, origin: origin, cdn: cdn, caFile: ca, extra: section)
            let test = try await MonitorBinary.run(["webhook", "test", "standard-hook", "--config", fixture.configPath])
            #expect(test.status == 0, "\(test.output) \(test.error)")
            // The receiver's status and size, never its body (issue 26 §4: a metadata service's answer was printed).
            #expect(
                test.output.contains(#/event about shop\.origin\.test: answered 200 \(\d+ bytes\)/#), "\(test.output)")
            #expect(!test.output.contains(": ok"), "\(test.output)")
            let sent = try #require(WebhookEndToEndTests.standardDeliveries(receiver).last)
            #expect(sent.body["domain"] as? String == "shop.origin.test")
            #expect(sent.body["type"] as? String == "test")

            // A webhook that hears only of the other domain gets its test about that one.
            try fixture.writeConfiguration(
                domains: Self.domains, origin: origin, cdn: cdn, caFile: ca,
                extra: section + "    domains: [other.origin.test]\n")
            let filtered = try await MonitorBinary.run(["webhook", "test", "--config", fixture.configPath])
            #expect(filtered.status == 0, "\(filtered.output) \(filtered.error)")
            let last = try #require(WebhookEndToEndTests.standardDeliveries(receiver).last)
            #expect(last.body["domain"] as? String == "other.origin.test")
        }
    }

    @Test("config check warns about a plain http:// receiver and a chat URL written inline, and stays valid")
    func warnings() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-hooks-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "https://hooks.slack.com/services/T0/B0/x\n".write(
            toFile: directory + "/slack.url", atomically: true, encoding: .utf8)
        let config = directory + "/config.yml"
        try """
        domains: [shop.example.net]
        webhooks:
          - name: plain
            url: http://hooks.example.net/aasa
          - name: chat-inline
            format: slack
            url: https://hooks.slack.com/services/T0/B0/secret-token
          - name: chat-file
            format: slack
            url_file: \(directory)/slack.url
          - name: local
            url: http://127.0.0.1:8080/aasa

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try await MonitorBinary.run(["config", "check", "--config", config])
        #expect(check.status == 0, "\(check.error)")
        let warnings = check.error.split(separator: "\n").map(String.init)
        #expect(
            warnings.contains {
                $0.hasPrefix("warning: \(config):4: webhooks[0].url: a plain http:// receiver gets every event")
            }, "\(check.error)")
        #expect(
            warnings.contains {
                $0.hasPrefix("warning: \(config):7: webhooks[1].url: a slack webhook URL is a credential")
                    && $0.hasSuffix("move it out of this file with url_file or url_env")
            }, "\(check.error)")
        // Only those two: a URL in a file, and plain http on loopback, are fine.
        #expect(warnings.count == 2, "\(check.error)")
        #expect(!check.error.contains("secret-token"))
    }
}

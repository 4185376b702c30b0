import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// Issue 26 §4, "SSRF past the metadata guard": `config check` refuses every literal spelling of a link-local or
/// unique-local receiver (the real binary), and delivery refuses the address it actually connects to, naming the
/// receiver and never its URL's secret path (the real engine).
@Suite("Receivers in link-local and unique-local ranges", .timeLimit(.minutes(10)), .endToEndSlot)
struct ReceiverAddressTests {
    static let token = "s3cret-T0KEN-in-path"

    static func configCheck(url: String, allowPrivate: Bool = false) async throws -> MonitorBinary.Completion {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-ssrf-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/config.yml"
        let escaped = url.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
        try """
        domains: [shop.example.net]
        webhooks:
          - name: ops
            url: "\(escaped)"
        \(allowPrivate ? "    allow_private: true\n" : "")
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return try await MonitorBinary.run(["config", "check", "--config", config])
    }

    @Test(
        "config check refuses every spelling of a link-local or unique-local receiver",
        arguments: [
            ("http://[::ffff:a9fe:a9fe]:8080/", "link-local 169.254.0.0/16"),
            ("http://[0:0:0:0:0:ffff:a9fe:a9fe]:8080/", "link-local 169.254.0.0/16"),
            ("http://[0000:0000:0000:0000:0000:FFFF:A9FE:A9FE]/", "link-local 169.254.0.0/16"),
            ("http://[::FFFF:A9FE:A9FE]/", "link-local 169.254.0.0/16"),
            ("http://[::ffff:169.254.169.254]/", "link-local 169.254.0.0/16"),
            ("http://[64:ff9b::a9fe:a9fe]/", "link-local 169.254.0.0/16"),
            ("http://2852039166/", "link-local 169.254.0.0/16"),
            ("http://[FE80::1]/", "link-local fe80::/10"),
            ("http://[fe80:0:0:0:0:0:0:1]/", "link-local fe80::/10"),
            ("http://[FD00:EC2::254]/", "unique-local fd00::/8"),
        ])
    func configCheckRefusesLiterals(url: String, reason: String) async throws {
        let check = try await Self.configCheck(url: url + Self.token)
        #expect(check.status == 1, "\(check.output) \(check.error)")
        #expect(check.error.contains("webhooks[0].url: the host is a \(reason) address"), "\(check.error)")
        #expect(!check.error.contains(Self.token))
        #expect(try await Self.configCheck(url: url, allowPrivate: true).status == 0)
    }

    @Test(
        "config check refuses a URL with a space, tab, CR or LF, which libcurl would refuse at every delivery",
        arguments: [
            "https://hooks.example.net/a b", "https://hooks.example.net/a\r\nX-Injected: 1",
            "https://hooks.example.net/a\t",
        ])
    func configCheckRefusesWhiteSpace(url: String) async throws {
        let check = try await Self.configCheck(url: url)
        #expect(check.status == 1, "\(check.output) \(check.error)")
        #expect(check.error.contains("webhooks[0].url: the URL contains white space or a control character"))
    }

    @Test(
        "delivery refuses the address it connects to, names the receiver and sends nothing",
        arguments: [
            ("http://[::ffff:a9fe:a9fe]:8080/", "169.254.169.254"),
            ("http://[0:0:0:0:0:FFFF:A9FE:A9FE]:8080/", "169.254.169.254"),
            ("http://[fe80::1]:8080/", "fe80::1"),
        ])
    func deliveryRefuses(url: String, address: String) async throws {
        // Written past `config check` (as a file edited after the check, or a future receiver kind would be).
        let hook = WebhookConfiguration(name: "meta", url: url + Self.token)
        let results = try await WebhookTester.send(to: [hook], now: Date())
        let line = try #require(results.first?.line)
        #expect(results.first?.delivered == false)
        #expect(line.contains("not sent: refused: webhook meta ("), "\(line)")
        // An IPv4-mapped address is shown as connected to: ::ffff:169.254.169.254.
        #expect(line.contains("\(address), a link-local"), "\(line)")
        #expect(line.contains("nothing was sent"), "\(line)")
        #expect(!line.contains(Self.token), "\(line)")
    }

    @Test("a receiver outside the ranges is delivered through the guard, and webhook test prints its size")
    func loopbackReceiverDelivered() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "localhost"), protocols: .http1Only, routes: [FixtureRoute("/", .text("ok"))]
        ) { server in
            let url = "https://localhost:\(server.port)/"
            var hook = WebhookConfiguration(name: "local", url: url)
            hook.caFile = server.caFile
            let results = try await WebhookTester.send(to: [hook], now: Date())
            #expect(results.first?.delivered == true, "\(results.map(\.line))")
            #expect(results.first?.line.contains("answered 200 (2 bytes)") == true, "\(results.map(\.line))")
        }
    }
}

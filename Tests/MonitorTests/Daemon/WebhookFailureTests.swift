import EndToEndSlot
import Foundation
import GRDB
import HTTPEngine
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// The real daemon alerting receivers that fail in every way at once: refused, an untrusted certificate, a CA
/// file deleted under it, 4xx and 5xx answers that echo the URL, and a receiver that never answers. Every
/// failure goes through backoff or dead letter, the log stays a few lines per receiver, and the URL's token
/// shows nowhere.
@Suite("webhook failures", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct WebhookFailureTests {
    static let token = "T0KEN" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    static let domains = (1...5).map { "d\($0).origin.test" }

    /// The receiver: echoes the request's URI (token included) in its 4xx and 5xx answers, or never answers.
    static func receiverRoutes() -> [FixtureRoute] {
        [
            FixtureRoute("/echo404/\(token)") { request in .text("Cannot POST \(request.uri)", status: 404) },
            FixtureRoute("/echo500/\(token)") { request in .text("failed at \(request.uri)", status: 500) },
            FixtureRoute("/never/\(token)", .never),
            FixtureRoute("/services/\(token)", .text("ok")),
        ]
    }

    /// Every outbox row as (webhook, state, attempts).
    static func outbox(_ fixture: DaemonFixture) throws -> [(webhook: String, state: String, attempts: Int)] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(
            path: fixture.stateDirectory + "/aasa-monitor.sqlite", configuration: configuration)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT webhook, state, attempts FROM outbox").map {
                ($0["webhook"], $0["state"], $0["attempts"])
            }
        }
    }

    /// The daemon's `/status`, `/metrics` and `/healthz` pages, read from its listen address.
    static func endpointPages(_ daemon: RunningMonitor) async throws -> [String] {
        let line = try #require(daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8))
        return try await withCurlEngine { engine in
            var pages: [String] = []
            for path in ["/status", "/metrics", "/healthz"] {
                let page = try await engine.perform(HTTPRequest(url: "http://\(address)\(path)", httpsOnly: false))
                // /healthz may rightly answer 503 while the daemon has trouble of its own; it must not leak either.
                #expect(page.status == 200 || path == "/healthz", "\(path)")
                pages.append(String(decoding: page.body, as: UTF8.self))
            }
            return pages
        }
    }

    @Test("every failure is retried with backoff or dead, in a few log lines, and the token shows nowhere")
    func everyFailurePath() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, _, ca in
            try await withFixtureServer(certificate: .valid(for: "localhost"), routes: Self.receiverRoutes()) {
                receiver in
                let receiverCA = try writeCABundle([receiver], tag: "receiver")
                let doomedCA = try writeCABundle([receiver], tag: "doomed")
                defer { try? FileManager.default.removeItem(atPath: receiverCA) }
                let refused = try await refusedPort()
                let base = "https://localhost:\(receiver.port)"
                let hooks: [(name: String, url: String, caFile: String?)] = [
                    ("refused", "https://localhost:\(refused)/services/\(Self.token)?token=\(Self.token)", receiverCA),
                    ("untrusted", "\(base)/services/\(Self.token)", nil),
                    ("missing-ca", "\(base)/services/\(Self.token)", doomedCA),
                    ("answers-404", "\(base)/echo404/\(Self.token)", receiverCA),
                    ("answers-500", "\(base)/echo500/\(Self.token)", receiverCA),
                    ("hangs", "\(base)/never/\(Self.token)", receiverCA),
                ]
                var section = "webhooks:\n"
                for hook in hooks {
                    // Only `hangs` needs its timeout to fire (its receiver never answers): a short one, so it is
                    // retried within the wait below. The others fail at once, and wait far longer than a loaded
                    // machine delays them, so none of their failures becomes a timeout (issue 31).
                    let timeout = hook.name == "hangs" ? "1s" : DaemonFixture.patientTimeout
                    section += "  - name: \(hook.name)\n    url: \(hook.url)\n    timeout: \(timeout)\n"
                    if let caFile = hook.caFile { section += "    ca_file: \(caFile)\n" }
                }
                try fixture.writeConfiguration(
                    domains: Self.domains, origin: origin, cdn: cdn, caFile: ca,
                    extra: WebhookEndToEndTests.alerts + section)
                let daemon = try fixture.startDaemon()
                try await eventually("a first check of every domain", log: daemon) {
                    var checked = 0
                    for domain in Self.domains where try await !DaemonTests.checks(fixture, domain: domain).isEmpty {
                        checked += 1
                    }
                    return checked == Self.domains.count
                }
                // The CA file disappears under the running daemon, before its first delivery needs it.
                try FileManager.default.removeItem(atPath: doomedCA)
                fixture.origin.withLock { $0 = (404, "") }
                try await eventually("every delivery retried at least once or dead", timeout: .seconds(90), log: daemon)
                {
                    let rows = try Self.outbox(fixture)
                    return Set(rows.map(\.webhook)).count == hooks.count
                        && rows.allSatisfy { $0.state == "dead" || $0.attempts >= 2 }
                }
                let rows = try Self.outbox(fixture)
                let log = daemon.standardError
                let status = try await MonitorBinary.run(["status", "--config", fixture.configPath])
                let statusJSON = try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath])
                let test = try await MonitorBinary.run(["webhook", "test", "--config", fixture.configPath])
                let endpoint = try await Self.endpointPages(daemon)
                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)

                for hook in hooks where hook.name != "answers-404" {
                    #expect(
                        rows.contains { $0.webhook == hook.name && $0.state == "pending" && $0.attempts >= 2 },
                        "\(hook.name) was not retried with backoff: \(rows.filter { $0.webhook == hook.name })")
                }
                #expect(rows.filter { $0.webhook == "answers-404" }.allSatisfy { $0.state == "dead" })
                // A few lines per receiver, however many attempts: the rate limit holds back the rest.
                let attempts = rows.map(\.attempts).reduce(0, +)
                let deliveryLines = log.split(separator: "\n").filter { $0.contains("delivery: ") }
                for hook in hooks {
                    let lines = deliveryLines.filter {
                        $0.contains("webhook=\(hook.name) ") || $0.hasSuffix("webhook=\(hook.name)")
                    }
                    // Each kind of line at most 5 a minute plus its "repeated" line, over the up to two minutes this
                    // test may wait: up to 12 lines (7–9 seen), still far fewer than attempts. A line's `failure`
                    // field is part of its kind (LogRateLimiter.kind); only `hangs` times out, every attempt.
                    #expect(lines.count <= 12, "\(hook.name): \(lines.count) lines")
                }
                #expect(deliveryLines.count < attempts, "\(deliveryLines.count) lines for \(attempts) attempts")
                print(
                    "webhook failures: \(attempts) attempts, \(deliveryLines.count) delivery log lines, "
                        + "\(log.split(separator: "\n").count) log lines in all")
                // The token: in no log line, no command output, no file of the state directory.
                var outputs = [log, daemon.standardOutput]
                outputs += [status.output, status.error, statusJSON.output, statusJSON.error, test.output, test.error]
                outputs += endpoint
                for output in outputs {
                    #expect(!output.contains(Self.token), "\(output.suffix(2000))")
                }
                let files = try FileManager.default.subpathsOfDirectory(atPath: fixture.stateDirectory)
                #expect(!files.isEmpty)
                for file in files {
                    let data = (try? Data(contentsOf: URL(filePath: fixture.stateDirectory + "/" + file))) ?? Data()
                    #expect(data.range(of: Data(Self.token.utf8)) == nil, "\(file) holds the token")
                }
                if test.status != 2 {  // 2: the configuration was refused (the CA file is gone)
                    #expect(
                        test.output.contains("refused (standard, https://localhost:\(refused)/…)"), "\(test.output)")
                }
            }
        }
    }
}

import Foundation
import Synchronization
import TestSupport

/// A world for the real daemon: an origin (`*.origin.test`) and Apple's CDN (`cdn.test`) whose answers a test
/// changes while the daemon runs, a webhook receiver, a temporary directory with a configuration and state.
final class DaemonFixture: Sendable {
    static let app = "9JA89QQLNQ.com.example.shop"
    static let version1 = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy/*"}]}]}}"#
    static let version2 =
        #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy/gift*","exclude":true},{"/":"/buy/*"}]}]}}"#

    /// What the origin serves at `.well-known` (status, body), from the next check on.
    let origin = Mutex<(Int, String)>((200, DaemonFixture.version1))
    /// What the check under way is served: `origin` as it was when the check's first request (Apple's fetcher, which
    /// always goes first) arrived. A test changing `origin` while a check runs would otherwise tear that check
    /// (Apple's request 404, the plain one 200: a bot block nobody configured, and one chat message too many).
    private let originOfCheck = Mutex<(Int, String)?>(nil)
    /// What the origin serves at the legacy root path (status, body).
    let root = Mutex<(Int, String)>((404, ""))
    /// When set, the origin answers Apple's fetcher (`AASA-Bot/1.0.0`) 403, like a WAF bot rule, and others 200.
    let blocksApple = Mutex(false)
    /// What Apple's CDN serves (status, body, headers).
    let cdn = Mutex<(Int, String, [(String, String)])>((200, DaemonFixture.version1, DaemonFixture.appleHeaders))
    /// What Apple's CDN serves for one domain instead of `cdn`, by domain.
    let cdnFor = Mutex<[String: (Int, String, [(String, String)])]>([:])
    /// How long Apple's CDN waits before it answers (a check in flight for that long).
    let cdnDelay = Mutex<Duration>(.zero)
    /// What the webhook receiver answers, in order; the last one repeats.
    let receiverAnswers = Mutex<[FixtureResponse]>([.text(#"{"ok":true}"#)])
    /// The standard webhook's secret.
    static let secret = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()

    static let appleHeaders = [("Content-Type", "application/json"), ("Cache-Control", "max-age=2"), ("Age", "1")]

    let directory: String

    init() throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("aasa-daemon-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    var stateDirectory: String { directory + "/state" }
    var configPath: String { directory + "/config.yml" }

    func originRoutes() -> [FixtureRoute] {
        [
            FixtureRoute("/.well-known/apple-app-site-association") { request in
                let agent = request.headers.first { $0.0.lowercased() == "user-agent" }?.1
                if self.blocksApple.withLock({ $0 }), agent == "AASA-Bot/1.0.0" {
                    return .text("<html>Access denied</html>", status: 403, headers: [("Content-Type", "text/html")])
                }
                let (status, body) =
                    agent == "AASA-Bot/1.0.0"
                    ? self.originOfCheck.withLock { latched in
                        let current = self.origin.withLock { $0 }
                        latched = current
                        return current
                    }
                    : (self.originOfCheck.withLock { $0 } ?? self.origin.withLock { $0 })
                return .text(body, status: status, headers: [("Content-Type", "application/json")])
            },
            FixtureRoute("/apple-app-site-association") { _ in
                let (status, body) = self.root.withLock { $0 }
                return .text(body, status: status, headers: [("Content-Type", "application/json")])
            },
        ]
    }

    func cdnRoutes(domains: [String]) -> [FixtureRoute] {
        domains.map { domain in
            FixtureRoute("/a/v1/\(domain)") { _ in
                let (status, body, headers) = self.cdnFor.withLock { $0[domain] } ?? self.cdn.withLock { $0 }
                var response = FixtureResponse.text(body, status: status, headers: headers)
                response.delay = self.cdnDelay.withLock { $0 }
                return response
            }
        }
    }

    func receiverRoutes() -> [FixtureRoute] {
        let answer: @Sendable (RecordedRequest) -> FixtureResponse = { _ in
            self.receiverAnswers.withLock { answers in
                answers.count > 1 ? answers.removeFirst() : (answers.first ?? .text("ok"))
            }
        }
        return ["/standard", "/slack", "/discord", "/teams"].map { FixtureRoute($0, respond: answer) }
    }

    /// How long the daemon waits for a fixture, origin, CDN or receiver: far above any delay a loaded machine adds
    /// (issue 31). A fixture that is slow on purpose never answers (`.never`); a test that needs a timeout to fire
    /// says so with a short timeout of its own against such a fixture.
    static let patientTimeout = "30s"

    /// The `webhooks` section sending every format to the fixture receiver.
    func webhooksSection(receiver: FixtureServer, caFile: String, formats: [String] = ["standard"]) -> String {
        var text = "webhooks:\n"
        for format in formats {
            text += """
                  - name: \(format)-hook
                    url: https://localhost:\(receiver.port)/\(format)
                    format: \(format)
                    ca_file: \(caFile)
                    timeout: \(Self.patientTimeout)

                """
            if format == "standard" { text += "    secret: \(Self.secret)\n" }
        }
        return text
    }

    /// Runs `body` with origin, CDN and receiver up; always shuts them down.
    func withServers<Result>(
        domains: [String],
        _ body: (FixtureServer, FixtureServer, FixtureServer, String) async throws -> Result
    ) async throws -> Result {
        try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes()) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: cdnRoutes(domains: domains)) {
                cdn in
                try await withFixtureServer(certificate: .valid(for: "localhost"), routes: receiverRoutes()) {
                    receiver in
                    let path = try writeCABundle([origin, cdn, receiver], tag: "daemon")
                    defer { try? FileManager.default.removeItem(atPath: path) }
                    return try await body(origin, cdn, receiver, path)
                }
            }
        }
    }

    /// Writes the configuration the daemon reads. Its requests wait `patientTimeout`, and Apple's budget is as long:
    /// a fixture answer that a loaded machine delays past 5 s would otherwise be `origin.slow` at error severity
    /// (Apple gives up), an alert no test asked for.
    func writeConfiguration(
        domains: [String], origin: FixtureServer, cdn: FixtureServer, caFile: String, interval: String = "1s",
        cdnSettings: String = "", extra: String = ""
    ) throws {
        let text = """
            state_dir: \(stateDirectory)
            interval: \(interval)
            listen: 127.0.0.1:0
            http:
              timeout: \(Self.patientTimeout)
              apple_budget: \(Self.patientTimeout)
              ca_file: \(caFile)
              concurrency: 4
              connect_to: ["\(cdn.connectTo("cdn.test"))", "\(origin.wildcardConnectTo)"]
            cdn:
              base_url: https://cdn.test/a/v1/
              stale_after: 1h
            \(cdnSettings.isEmpty ? "" : "  " + cdnSettings)
            domains:
            \(domains.map { "  - name: \($0)" }.joined(separator: "\n"))
            \(extra)
            """
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Starts `aasa-monitor run` on this fixture's configuration.
    func startDaemon() throws -> RunningMonitor {
        try RunningMonitor(arguments: ["run", "--config", configPath, "--log-level", "debug"])
    }
}

import EndToEndSlot
import Foundation
import Monitor
import Synchronization
import TestSupport
import Testing

/// `check --wait` with the real binary: it waits for Apple's copy to catch up, stops at once on what waiting cannot
/// fix, and gives up at the deadline with the last check's code.
@Suite("check --wait", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckWaitTests {
    static let domain = "newapp.origin.test"

    /// Runs `body` with an origin serving the new app and a CDN that serves the older copy for its first
    /// `lagging` answers (max-age 1 s), then the origin's meaning.
    static func withLaggingCDN<Result>(
        lagging: Int,
        _ body: ([String]) async throws -> Result
    ) async throws -> Result {
        let answered = Mutex(0)
        let originRoutes = [
            FixtureRoute(
                "/.well-known/apple-app-site-association", CheckScenarios.json(CheckScenarios.currentWithNewApp)),
            FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
        ]
        let cdnRoute = FixtureRoute("/a/v1/\(domain)") { _ in
            let count = answered.withLock { count in
                count += 1
                return count
            }
            let headers = [("Content-Type", "application/json"), ("Cache-Control", "max-age=1"), ("Age", "0")]
            return .text(count <= lagging ? CheckScenarios.current : CheckScenarios.currentWithNewApp, headers: headers)
        }
        return try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: [cdnRoute]) { cdn in
                let bundle = try writeCABundle([origin, cdn], tag: "wait")
                defer { try? FileManager.default.removeItem(atPath: bundle) }
                let options =
                    ["--cdn-base", "https://cdn.test/a/v1/", "--ca-file", bundle, "--timeout", "3s"]
                    + ["--connect-to", cdn.connectTo("cdn.test"), "--connect-to", origin.wildcardConnectTo]
                return try await body(options)
            }
        }
    }

    @Test("waits while Apple's copy lacks the new app, and exits 0 once Apple serves it")
    func waitsUntilReady() async throws {
        try await Self.withLaggingCDN(lagging: 2) { options in
            let run = try await MonitorBinary.run(
                ["check", Self.domain, "--expect-app", CheckScenarios.newApp, "--wait", "30s", "--wait-step", "1s"]
                    + options)
            #expect(run.status == 0, "\(run.output)\(run.error)")
            #expect(run.error.contains("waiting for Apple's CDN: \(Self.domain) (cdn_stale"))
            #expect(run.error.contains("left"))
            #expect(run.output.contains("\(Self.domain): ready"))
        }
    }

    @Test("an expectation the origin fails stops the wait at once with 4")
    func stopsOnFailure() async throws {
        try await Self.withLaggingCDN(lagging: 100) { options in
            let started = ContinuousClock.now
            let run = try await MonitorBinary.run(
                ["check", Self.domain, "--expect-app", "9JA89QQLNQ.com.example.absent", "--wait", "60s"] + options)
            #expect(run.status == 4, "\(run.output)\(run.error)")
            #expect(!run.error.contains("waiting for Apple's CDN"))
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("time up: the last check's exit code, 3, with the lagging copy reported")
    func givesUpAtTheDeadline() async throws {
        try await Self.withLaggingCDN(lagging: 100) { options in
            let run = try await MonitorBinary.run(
                [
                    "check", Self.domain, "--expect-app", CheckScenarios.newApp, "--wait", "6s", "--wait-step", "1s",
                    "--json",
                ] + options)
            #expect(run.status == 3, "\(run.output)\(run.error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect((object["summary"] as? [String: Any])?["verdict"] as? String == "cdn_stale")
            // Plain lines on a pipe: each re-check left its own line in the log.
            #expect(run.error.components(separatedBy: "waiting for Apple's CDN").count >= 3)
        }
    }
}

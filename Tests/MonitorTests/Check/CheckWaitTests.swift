import EndToEndSlot
import Foundation
import Monitor
import MonitorCore
import Synchronization
import TestSupport
import Testing

/// `check --wait` with the real binary: it waits for Apple's copy to catch up, stops at once on what waiting cannot
/// fix, and gives up when Apple's copy cannot change before the deadline, with the last check's code.
///
/// Every check asks the fixture CDN once, so the tests count checks by its requests instead of timing them; the
/// `--wait` deadlines are generous (90 s) so that no outcome depends on how fast the machine is.
@Suite("check --wait", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckWaitTests {
    static let domain = "newapp.origin.test"

    /// Runs `body` with an origin serving the new app and a CDN that serves the older copy for its first
    /// `lagging` answers, then the origin's meaning. The first `expiringSoon` answers say the copy expires in 1 s
    /// (so a waiting check looks again a step later); later ones say an hour, past any deadline here.
    static func withLaggingCDN<Result>(
        lagging: Int,
        expiringSoon: Int = .max,
        _ body: (_ options: [String], _ cdn: FixtureServer) async throws -> Result
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
            let maxAge = count <= expiringSoon ? "1" : "3600"
            let headers = [("Content-Type", "application/json"), ("Cache-Control", "max-age=\(maxAge)"), ("Age", "0")]
            return .text(count <= lagging ? CheckScenarios.current : CheckScenarios.currentWithNewApp, headers: headers)
        }
        return try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: [cdnRoute]) { cdn in
                let bundle = try writeCABundle([origin, cdn], tag: "wait")
                defer { try? FileManager.default.removeItem(atPath: bundle) }
                let options =
                    ["--cdn-base", "https://cdn.test/a/v1/", "--ca-file", bundle, "--timeout", "30s"]
                    + ["--connect-to", cdn.connectTo("cdn.test"), "--connect-to", origin.wildcardConnectTo]
                return try await body(options, cdn)
            }
        }
    }

    /// How many checks asked Apple's CDN for the domain.
    static func checks(_ cdn: FixtureServer) -> Int {
        cdn.requests.filter { $0.path == "/a/v1/\(domain)" }.count
    }

    @Test("waits while Apple's copy lacks the new app, and exits 0 once Apple serves it")
    func waitsUntilReady() async throws {
        try await Self.withLaggingCDN(lagging: 2) { options, cdn in
            let run = try await MonitorBinary.run(
                ["check", Self.domain, "--expect-app", CheckScenarios.newApp, "--wait", "90s", "--wait-step", "1s"]
                    + options)
            #expect(run.status == 0, "\(run.output)\(run.error)")
            #expect(run.error.contains("waiting for Apple's CDN: \(Self.domain) (cdn_stale"))
            #expect(run.error.contains("left"))
            #expect(run.output.contains("\(Self.domain): ready"))
            // Two lagging answers, then the one that ends the wait: three checks, no more.
            #expect(Self.checks(cdn) == 3, "\(run.error)")
        }
    }

    @Test("an expectation the origin fails stops the wait at once with 4")
    func stopsOnFailure() async throws {
        try await Self.withLaggingCDN(lagging: 100) { options, cdn in
            let run = try await MonitorBinary.run(
                [
                    "check", Self.domain, "--expect-app", "9JA89QQLNQ.com.example.absent", "--wait", "90s",
                    "--wait-step",
                    "1s",
                ] + options)
            #expect(run.status == 4, "\(run.output)\(run.error)")
            #expect(!run.error.contains("waiting for Apple's CDN"))
            // At once: one check, and not one re-check although the copy expires every second.
            #expect(Self.checks(cdn) == 1, "\(run.error)")
        }
    }

    @Test("time up: once Apple's copy cannot change before the deadline, the last check's exit code, 3, is reported")
    func givesUpAtTheDeadline() async throws {
        // Three answers that expire in a second, then one that expires after the 90 s deadline: four checks.
        try await Self.withLaggingCDN(lagging: 100, expiringSoon: 3) { options, cdn in
            let run = try await MonitorBinary.run(
                [
                    "check", Self.domain, "--expect-app", CheckScenarios.newApp, "--wait", "90s", "--wait-step", "1s",
                    "--json",
                ] + options)
            #expect(run.status == 3, "\(run.output)\(run.error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect((object["summary"] as? [String: Any])?["verdict"] as? String == "cdn_stale")
            #expect(Self.checks(cdn) == 4, "\(run.error)")
            // Plain lines on a pipe: each of the three re-checks left its own line in the log.
            #expect(run.error.components(separatedBy: "waiting for Apple's CDN").count - 1 == 3, "\(run.error)")
        }
    }
}

/// `ReleaseWait.decide`, pure and at fixed times: when `check --wait` looks again and when it stops. The end-to-end
/// tests above count checks; the step that would land past the deadline is judged here, where no clock runs.
@Suite("check --wait decisions")
struct ReleaseWaitDecisionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let deadline = now.addingTimeInterval(60)

    /// A report with `verdict` whose CDN copy expires `expiresIn` seconds from `now` (nil: it does not say).
    static func report(_ verdict: Verdict, expiresIn seconds: TimeInterval?, domain: String = "a.test") -> DomainReport
    {
        var cdn = CDNFacts(url: "https://cdn.test/a/v1/\(domain)", status: 200)
        cdn.expiresAt = seconds.map { now.addingTimeInterval($0) }
        return DomainReport(
            domain: domain, checkedAt: now, durationSeconds: 0.1, verdict: verdict, findings: [],
            origin: OriginFacts(
                wellKnown: LocationFacts(url: "https://\(domain)/.well-known/apple-app-site-association", status: 200),
                plainStatus: 200, root: nil),
            cdn: cdn, diff: nil, documents: [:])
    }

    static func decide(_ reports: [DomainReport], step: TimeInterval = 1) -> ReleaseWait.Decision {
        ReleaseWait.decide(reports, now: now, deadline: deadline, step: step)
    }

    static func at(_ seconds: TimeInterval) -> ReleaseWait.Decision { .recheck(at: now.addingTimeInterval(seconds)) }

    @Test("a lagging copy is looked at again when it expires, never sooner than a step after the last check")
    func recheck() {
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: 10)]) == Self.at(10))
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: 0.2)]) == Self.at(1))
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: nil)]) == Self.at(1))
        #expect(Self.decide([Self.report(.unknown, expiresIn: 5)], step: 2) == Self.at(5))
        // The earliest copy to expire among the waiting domains; a ready one does not wait.
        let several = [
            Self.report(.cdnStale, expiresIn: 30, domain: "a.test"),
            Self.report(.cdnMissing, expiresIn: 20, domain: "b.test"),
            Self.report(.ready, expiresIn: 2, domain: "c.test"),
        ]
        #expect(Self.decide(several) == Self.at(20))
    }

    @Test("time up: a step or an expiry past the deadline stops, as does what waiting cannot fix")
    func stop() {
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: 0.2)], step: 61) == .stop)
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: 3600)]) == .stop)
        #expect(Self.decide([Self.report(.cdnStale, expiresIn: 60)]) == Self.at(60))
        for verdict in [Verdict.ready, .originBroken, .expectationFailed] {
            #expect(Self.decide([Self.report(verdict, expiresIn: 10)]) == .stop, "\(verdict)")
        }
        // The most severe code decides: a broken origin next to a lagging copy is not waited for.
        let mixed = [
            Self.report(.cdnStale, expiresIn: 10, domain: "a.test"),
            Self.report(.originBroken, expiresIn: 10, domain: "b.test"),
        ]
        #expect(Self.decide(mixed) == .stop)
    }
}

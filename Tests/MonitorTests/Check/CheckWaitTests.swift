import AASA
import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
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
            // The last line says why waiting ended although time is left.
            let closing = try #require(run.error.split(separator: "\n").last.map(String.init))
            #expect(closing.hasPrefix("stopped waiting with "), "\(run.error)")
            // The copy expires in an hour (59 min once the check's own time has passed), past the 90 s deadline.
            let reason = " left: \(Self.domain) still cdn_stale; Apple's copy may change in "
            #expect(closing.contains(reason), "\(closing)")
            #expect(closing.hasSuffix(", after --wait ends: give a longer --wait or check again then"), "\(closing)")
        }
    }

    @Test("a --wait shorter than a step does not wait, and says so and why")
    func saysItDidNotWait() async throws {
        try await Self.withLaggingCDN(lagging: 100, expiringSoon: 0) { options, cdn in
            // The real step, a minute: 30 s leave no room for a second check.
            let run = try await MonitorBinary.run(
                ["check", Self.domain, "--expect-app", CheckScenarios.newApp, "--wait", "30s"] + options)
            #expect(run.status == 3, "\(run.output)\(run.error)")
            #expect(Self.checks(cdn) == 1, "\(run.error)")
            #expect(!run.error.contains("waiting for"), "\(run.error)")
            #expect(
                run.error.hasPrefix(
                    "did not wait: \(Self.domain) is cdn_stale; checks are at least 1 min apart and --wait ends in "),
                "\(run.error)")
            let advice = ": give a --wait longer than 1 min (Apple's copy may change in "
            #expect(run.error.contains(advice), "\(run.error)")
            #expect(run.output.hasSuffix("\n1 domain: 1 cdn_stale — exit 3\n"), "\(run.output)")
        }
    }

    @Test("this host's network down: the wait names it, not Apple's CDN, and time up ends with a closing line")
    func waitsForThisHostsNetwork() async throws {
        // Every connection, to the origin and to Apple's CDN, goes to a closed loopback port: a host whose network
        // is down. 10 s give the first check far more room than a refused connection takes before the deadline.
        let run = try await MonitorBinary.run([
            "check", "down.test", "--cdn-base", "https://cdn.test/a/v1/", "--connect-to", "::127.0.0.1:9", "--wait",
            "10s", "--wait-step", "1s",
        ])
        #expect(run.status == 3, "\(run.output)\(run.error)")
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix(
                "waiting for this host's network (its DNS resolver, routes or firewall): down.test (unknown) — next "
                    + "check in ") == true,
            "\(run.error)")
        #expect(!run.error.contains("waiting for Apple's CDN"), "\(run.error)")
        #expect(
            lines.last == "time is up: down.test still unknown (this host reaches neither it nor Apple's CDN)",
            "\(run.error)")
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

    @Test("why waiting ended while a domain still waits: time up, a copy that cannot change in time, or never begun")
    func closing() {
        func closing(_ reports: [DomainReport], step: TimeInterval = 1, rechecks: Int) -> String? {
            ReleaseWait.closing(reports, now: Self.now, deadline: Self.deadline, step: step, rechecks: rechecks)
        }
        let lagging = [Self.report(.cdnStale, expiresIn: 3600)]
        #expect(closing(lagging, step: 61, rechecks: 4) == "time is up: a.test still cdn_stale")
        #expect(
            closing(lagging, step: 61, rechecks: 0)
                == "did not wait: a.test is cdn_stale; checks are at least 1 min apart and --wait ends in 1 min: give "
                + "a --wait longer than 1 min (Apple's copy may change in 1 h)")
        #expect(
            closing(lagging, rechecks: 2)
                == "stopped waiting with 1 min left: a.test still cdn_stale; Apple's copy may change in 1 h, after "
                + "--wait ends: give a longer --wait or check again then")
        // Nothing to say once every domain is ready, or when waiting cannot fix what the report shows.
        #expect(closing([Self.report(.ready, expiresIn: 10)], rechecks: 3) == nil)
        #expect(closing(lagging + [Self.report(.originBroken, expiresIn: 10, domain: "b.test")], rechecks: 0) == nil)
    }

    @Test("a domain this host cannot reach, nor Apple's CDN, waits for this host's network, not for Apple")
    func waitsForHostNetwork() {
        var down = Self.report(.unknown, expiresIn: nil, domain: "down.test")
        down.cdn = nil
        down.findings = [
            ReportFinding(
                code: .originConnect, severity: .error, source: .wellKnown, message: "could not connect",
                causedBy: FindingCause(code: .monitorNetwork, source: .cdn))
        ]
        let next = Self.now.addingTimeInterval(60)
        #expect(
            ReleaseWait.progress([down], now: Self.now, deadline: Self.deadline, next: next)
                == "waiting for this host's network (its DNS resolver, routes or firewall): down.test (unknown) — next "
                + "check in 1 min, 1 min left")
        let both = [Self.report(.cdnStale, expiresIn: nil), down]
        #expect(
            ReleaseWait.progress(both, now: Self.now, deadline: Self.deadline, next: next)
                .hasPrefix("waiting for Apple's CDN and this host's network: a.test (cdn_stale); down.test (unknown)"))
        #expect(
            ReleaseWait.closing([down], now: Self.now, deadline: Self.deadline, step: 61, rechecks: 1)
                == "time is up: down.test still unknown (this host reaches neither it nor Apple's CDN)")
    }
}

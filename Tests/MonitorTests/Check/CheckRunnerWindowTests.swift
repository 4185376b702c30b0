import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import Synchronization
import TestSupport
import Testing

/// `CheckRunner.stream`'s sliding window over many domains: a hanging one holds one slot, every domain is checked
/// once, and no more run at once than the concurrency.
@Suite("check runner: many domains", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckRunnerWindowTests {
    /// Every report, in the order the checks completed (not the order given, in which `stream` releases them).
    static func completionOrder(_ domains: [String], settings: ProbeSettings) async throws -> [DomainReport] {
        let completed = Mutex<[DomainReport]>([])
        try await CheckRunner.stream(
            domains.map { CheckRunner.Target(domain: $0) }, probe: settings, evaluation: EvaluationSettings(),
            compact: { report in completed.withLock { $0.append(report) } }, emit: { _ in })
        return completed.withLock { $0 }
    }

    @Test("a never-answering origin holds its slot while another domain completes first, and its CDN is asked")
    func hangingOriginDoesNotDelayOthers() async throws {
        let domains = ["hang.origin.test", "good.origin.test"]
        let routes = [
            routeByHost("/.well-known/apple-app-site-association", Self.hangOrAnswer),
            routeByHost("/apple-app-site-association", Self.hangOrAnswer),
        ]
        // The hanging origin's timeout (5 minutes) is far past anything waited for here: the good domain completes
        // while the hanging one is still being checked, however slow the machine. The check is then cancelled; the
        // timeout itself is `hangingOriginTimesOut`'s.
        try await withProbeFixtures(routes: routes, cdnServes: domains, timeout: .seconds(300)) { fixtures in
            let (completions, completed) = AsyncStream.makeStream(of: DomainReport.self)
            let checking = Task {
                defer { completed.finish() }
                try await CheckRunner.stream(
                    domains.map { CheckRunner.Target(domain: $0) }, probe: fixtures.probe.settings,
                    evaluation: EvaluationSettings(),
                    compact: { report in
                        completed.yield(report)
                        return report.domain
                    }, emit: { _ in })
            }
            defer { checking.cancel() }
            var arrivals = completions.makeAsyncIterator()
            let first = try #require(await arrivals.next())
            #expect(first.domain == "good.origin.test")
            #expect(first.origin.wellKnown.status == 200)
            #expect(first.cdn?.status == 200)
            // The hanging domain's CDN request does not wait for its origin (a hang guard of 60 s, far inside the
            // origin's 5 minutes), and the origin was asked and is still silent.
            try await fixtures.cdn.waitUntil("Apple's CDN asked for hang.origin.test", timeout: .seconds(60)) {
                $0.requests.contains { $0.path == "/a/v1/hang.origin.test" }
            }
            #expect(fixtures.origin.requests.contains { requestHost($0) == "hang.origin.test" })
            checking.cancel()
            _ = await checking.result
        }
    }

    @Test("a never-answering origin times out on both locations, and its domain is still reported")
    func hangingOriginTimesOut() async throws {
        let routes = [
            routeByHost("/.well-known/apple-app-site-association", Self.hangOrAnswer),
            routeByHost("/apple-app-site-association", Self.hangOrAnswer),
        ]
        // Only the timeout is under test: the run has the hanging domain alone, so 1 s is enough.
        try await withProbeFixtures(routes: routes, cdnServes: ["hang.origin.test"], timeout: .seconds(1)) {
            fixtures in
            let arrived = try await Self.completionOrder(["hang.origin.test"], settings: fixtures.probe.settings)
            #expect(arrived.map(\.domain) == ["hang.origin.test"])
            let hanging = try #require(arrived.first)
            #expect(hanging.origin.wellKnown.error == FetchFailure.Kind.timeout.rawValue)
            #expect(hanging.origin.root?.error == FetchFailure.Kind.timeout.rawValue)
            #expect(hanging.cdn != nil)
            #expect(fixtures.cdn.requests.contains { $0.path == "/a/v1/hang.origin.test" })
        }
    }

    /// `hang.origin.test` never answers; every other host serves the file.
    static let hangOrAnswer: @Sendable (String) -> FixtureResponse = { host in
        host == "hang.origin.test" ? .never : .text(ProbeFixtures.aasaBody)
    }

    @Test("every domain is observed once, each with one TLS handshake at the origin")
    func everyDomainOnce() async throws {
        let domains = (1...6).map { "d\($0).origin.test" }
        let routes = [FixtureRoute("/.well-known/apple-app-site-association", .text(ProbeFixtures.aasaBody))]
        // 30 s, not the fixtures' 10 s: every origin here answers, and none may time out on a loaded machine.
        try await withProbeFixtures(routes: routes, cdnServes: domains, timeout: .seconds(30), concurrency: 3) {
            fixtures in
            let reports = try await Self.completionOrder(domains, settings: fixtures.probe.settings)
            for report in reports {
                #expect(report.origin.wellKnown.status == 200, "\(report.domain)")
                #expect(report.cdn?.status == 200, "\(report.domain)")
            }
            #expect(reports.map(\.domain).sorted() == domains.sorted())
            #expect(fixtures.origin.activity.requests.count == 18)
            #expect(fixtures.origin.activity.tlsHandshakesCompleted == 6)
        }
    }

    @Test("no more domains run at once than the concurrency limit", arguments: [1, 2])
    func concurrencyLimit(limit: Int) async throws {
        let domains = (1...5).map { "c\($0).origin.test" }
        // A slow first answer holds each domain open long enough for an unlimited probe to start all of them.
        let routes = [
            FixtureRoute(
                "/.well-known/apple-app-site-association",
                FixtureResponse(body: .bytes(Array(ProbeFixtures.aasaBody.utf8)), delay: .milliseconds(50)))
        ]
        try await withProbeFixtures(routes: routes, cdnServes: domains, timeout: .seconds(30), concurrency: limit) {
            fixtures in
            _ = try await Self.completionOrder(domains, settings: fixtures.probe.settings)
            let requests = fixtures.origin.requests
            #expect(requests.count == 15)
            #expect(Self.mostDomainsOpenAtOnce(requests) <= limit)
        }
    }

    /// Replays the origin's requests in arrival order: a domain is open from its first request until its third
    /// (the last of its three origin requests) has arrived.
    static func mostDomainsOpenAtOnce(_ requests: [RecordedRequest]) -> Int {
        var counts: [String: Int] = [:]
        var open = Set<String>()
        var most = 0
        for request in requests {
            let host = requestHost(request)
            counts[host, default: 0] += 1
            if counts[host] == 1 { open.insert(host) }
            most = max(most, open.count)
            if counts[host] == 3 { open.remove(host) }
        }
        return most
    }
}

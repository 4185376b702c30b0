import Foundation
import HTTPEngine
import Monitor
import TestSupport
import Testing

@Suite("Domain probe: many domains")
struct ProbeBatchTests {
    @Test("a never-answering origin times out while another domain completes first, and its CDN is still asked")
    func hangingOriginDoesNotDelayOthers() async throws {
        let domains = ["hang.origin.test", "good.origin.test"]
        let answer: @Sendable (String) -> FixtureResponse = { host in
            host == "hang.origin.test" ? .never : .text(ProbeFixtures.aasaBody)
        }
        let routes = [
            routeByHost("/.well-known/apple-app-site-association", answer),
            routeByHost("/apple-app-site-association", answer),
        ]
        try await withProbeFixtures(routes: routes, cdnServes: domains, timeout: .seconds(1)) { fixtures in
            var arrived: [DomainObservation] = []
            for await observation in fixtures.probe.observeAll(domains: domains, now: { Date() }) {
                arrived.append(observation)
            }
            #expect(arrived.map(\.domain) == ["good.origin.test", "hang.origin.test"])
            let hanging = try #require(arrived.last)
            #expect(hanging.wellKnown.failure?.kind == .timeout)
            #expect(hanging.root?.failure?.kind == .timeout)
            #expect(hanging.cdn?.response?.status == 200)
            #expect(fixtures.cdn.requests.contains { $0.path == "/a/v1/hang.origin.test" })
            #expect(arrived.first?.wellKnown.response?.status == 200)
        }
    }

    @Test("every domain is observed once, each with one TLS handshake at the origin")
    func everyDomainOnce() async throws {
        let domains = (1...6).map { "d\($0).origin.test" }
        let routes = [FixtureRoute("/.well-known/apple-app-site-association", .text(ProbeFixtures.aasaBody))]
        try await withProbeFixtures(routes: routes, cdnServes: domains, concurrency: 3) { fixtures in
            var seen: [String] = []
            for await observation in fixtures.probe.observeAll(domains: domains, now: { Date() }) {
                #expect(observation.wellKnown.response?.status == 200, "\(observation.domain)")
                #expect(observation.cdn?.response?.status == 200, "\(observation.domain)")
                seen.append(observation.domain)
            }
            #expect(seen.sorted() == domains.sorted())
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
        try await withProbeFixtures(routes: routes, cdnServes: domains, concurrency: limit) { fixtures in
            for await _ in fixtures.probe.observeAll(domains: domains, now: { Date() }) {}
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

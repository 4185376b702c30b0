import EndToEndSlot
import HTTPEngine
import TestSupport
import Testing

/// One stalled peer must not hold up requests to other hosts, even when a connect-to rule sends both to the same
/// address (libcurl 7.88 files connections under the connect-to target, so without per-host aliases both hosts
/// shared one bucket, and a CDN request waiting for multiplexing waited behind the origin's handshake).
@Suite("No head-of-line blocking across hosts", .endToEndSlot)
struct HeadOfLineTests {
    @Test("a stalled origin sharing its target address with a healthy CDN holds up no CDN request")
    func stalledOriginBesideHealthyCDN() async throws {
        let stall = try StalledListener()
        defer { stall.close() }
        try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: [FixtureRoute("/a", .text("a"))]) {
            cdn in
            try await withCurlEngine { engine in
                // The stalled origin outlasts the CDN requests' 30 s by far: it ends only when cancelled below.
                let origin = HTTPRequest(
                    url: "https://origin.test/.well-known/apple-app-site-association", timeout: .seconds(600),
                    connectTimeout: .seconds(600),
                    connectTo: [try ConnectToRule(parsing: "origin.test:443:127.0.0.1:\(stall.port)")],
                    trust: .only(caFile: cdn.caFile))
                let stalled = Task { try await engine.perform(origin) }
                // A generous wait: in a full parallel run on 2 cores the first connect once took over 10 s.
                try await stall.waitForConnections(1, timeout: .seconds(30))
                var request = try fixtureRequest("https://cdn.test/a", server: cdn, host: "cdn.test")
                request.waitsForMultiplexing = true
                // A CDN request queued behind the origin's handshake waits until its own timeout (the fixture's 30 s,
                // far inside the origin's 600 s) and fails; one that is not answers, however loaded the machine.
                let cdnRequest = request
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 { group.addTask { try await engine.perform(cdnRequest).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 200, count: 8))
                #expect(cdn.activity.connectionsAccepted == 1, "the CDN's requests share their own connection")
                stalled.cancel()
                _ = await stalled.result
            }
        }
    }

    @Test("two hosts sent to one address get separate connections, never each other's")
    func noReuseAcrossNames() async throws {
        try await withFixtureServer(certificate: .valid(for: "*.bench.test"), routes: [FixtureRoute("/", .text("x"))]) {
            server in
            try await withCurlEngine { engine in
                for host in ["a.bench.test", "b.bench.test", "a.bench.test", "b.bench.test"] {
                    let request = HTTPRequest(
                        url: "https://\(host)/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout,
                        connectTo: [try ConnectToRule(parsing: server.connectTo(host))],
                        trust: .only(caFile: server.caFile))
                    #expect(try await engine.perform(request).status == 200)
                }
                #expect(server.activity.tlsHandshakesCompleted == 2, "one connection per host name, each reused")
            }
        }
    }

    @Test("an IPv6 target is reached through its alias: the connection is refused, the name is not unresolved")
    func ipv6Target() async throws {
        try await withCurlEngine { engine in
            let request = HTTPRequest(
                url: "https://v6.test/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout,
                connectTo: [try ConnectToRule(parsing: "v6.test:443:[::1]:9")])
            let failure = try await expectFailure(request, on: engine)
            #expect(failure.kind == .connect, "\(failure)")
        }
    }

    @Test("PIPEWAIT is off unless asked for")
    func pipewaitDefault() {
        #expect(HTTPRequest(url: "https://origin.test/").waitsForMultiplexing == false)
    }

    @Test("connect-to aliases are valid host names, one per host and target")
    func aliases() {
        let a = ConnectToRule.alias(host: "origin.test", target: "127.0.0.1")
        let b = ConnectToRule.alias(host: "cdn.test", target: "127.0.0.1")
        #expect(a != b)
        #expect(a == ConnectToRule.alias(host: "ORIGIN.test", target: "127.0.0.1"))
        #expect(a.hasSuffix(".connect-to.invalid") && a.count == 36)
        #expect(ConnectToRule.isIPAddress("127.0.0.1") && ConnectToRule.isIPAddress("::1"))
        #expect(!ConnectToRule.isIPAddress("localhost"))
    }
}

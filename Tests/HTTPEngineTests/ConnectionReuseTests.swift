import EndToEndSlot
import TestSupport
import Testing

@testable import HTTPEngine

@Suite("HTTP/2 and connection reuse", .endToEndSlot)
struct ConnectionReuseTests {
    @Test("HTTP/2 is negotiated and concurrent requests to one host share one handshake")
    func http2SharesOneConnection() async throws {
        try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: [FixtureRoute("/a", .text("a"))]) {
            server in
            try await withCurlEngine { engine in
                let request = try fixtureRequest("https://cdn.test/a", server: server, host: "cdn.test")
                // The first request alone opens the connection; the rest are multiplexed on it.
                let first = try await engine.perform(request)
                #expect(first.httpVersion == .http2)
                let versions = try await withThrowingTaskGroup(of: HTTPVersion.self) { group in
                    for _ in 0..<8 { group.addTask { try await engine.perform(request).httpVersion } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(versions == Array(repeating: .http2, count: 8))
                let activity = server.activity
                #expect(activity.requests.count == 9)
                #expect(activity.requests.allSatisfy { $0.httpVersion == "2" })
                #expect(activity.tlsHandshakesCompleted == 1)
                #expect(activity.connectionsAccepted == 1)
                #expect(activity.negotiatedProtocols == ["h2"])
            }
        }
    }

    @Test("HTTP/1.1 requests in sequence reuse the kept-alive connection")
    func http1KeepAlive() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), protocols: .http1Only, routes: [FixtureRoute("/", .text("x"))]
        ) { server in
            try await withCurlEngine { engine in
                let request = try fixtureRequest("https://origin.test/", server: server)
                for _ in 0..<3 {
                    #expect(try await engine.perform(request).httpVersion == .http1_1)
                }
                #expect(server.activity.tlsHandshakesCompleted == 1)
            }
        }
    }

    @Test("reading the certificate forces a fresh handshake even when a connection is idle")
    func chainReadingUsesFreshConnection() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))]) {
            server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                _ = try await engine.perform(request)
                request.readsCertificate = true
                let response = try await engine.perform(request)
                #expect(response.certificate?.subjectAlternativeNames == ["origin.test"])
                #expect(server.activity.tlsHandshakesCompleted == 2)
            }
        }
    }

    @Test("a closing request that ends first does not cut off one in flight, and closing requests leave nothing idle")
    func closingRequestsShareThenClose() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"),
            routes: [
                FixtureRoute("/", .text("x")),
                FixtureRoute("/slow", FixtureResponse(status: 200, body: .bytes([0x78]), delay: .milliseconds(300))),
            ]
        ) { server in
            try await withCurlEngine { engine in
                let opening = try fixtureRequest("https://origin.test/", server: server)
                _ = try await engine.perform(opening)
                var fast = opening
                fast.closesConnection = true
                var slow = try fixtureRequest("https://origin.test/slow", server: server)
                slow.closesConnection = true
                // The slow stream is at the server before the fast one starts, so the fast one ends while the slow
                // one is in flight: its close must not cut the slow one off. (They share the opening connection when
                // libcurl reuses it; under a loaded test run it has opened a second one, so that is not asserted.)
                async let slowStatus = engine.perform(slow).status
                _ = try await server.waitUntil("the slow request in flight", timeout: .seconds(60)) {
                    $0.requests.count == 2
                }
                #expect(try await engine.perform(fast).status == 200)
                #expect(try await slowStatus == 200)
                let used = try await server.waitUntil("every connection closed by its last user") {
                    $0.connectionsClosed == $0.connectionsAccepted
                }
                _ = try await engine.perform(opening)
                #expect(server.activity.connectionsAccepted == used.connectionsAccepted + 1, "nothing idle to reuse")
            }
        }
    }

    @Test("with Debian's OpenSSL libcurl the certificate is copied from the TLS connection, not printed by CERTINFO")
    func certificateComesFromOpenSSL() {
        // The fallback (CERTINFO) printed every field of every certificate: about 8% of a check's CPU.
        #expect(Transfer.peerCertificatesReadable)
    }

    @Test("a wildcard connect-to rule sends every host to one server")
    func wildcardConnectTo() async throws {
        try await withFixtureServer(certificate: .valid(for: "*.bench.test"), routes: [FixtureRoute("/", .text("x"))]) {
            server in
            try await withCurlEngine { engine in
                let rule = try ConnectToRule(parsing: server.wildcardConnectTo)
                for host in ["d1.bench.test", "d2.bench.test"] {
                    let request = HTTPRequest(
                        url: "https://\(host)/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout,
                        connectTo: [rule], trust: .only(caFile: server.caFile))
                    #expect(try await engine.perform(request).status == 200)
                }
                #expect(server.activity.tlsHandshakesCompleted == 2, "one handshake per distinct host name")
            }
        }
    }
}

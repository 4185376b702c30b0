import TestSupport
import Testing

@testable import HTTPEngine

@Suite("HTTP/2 and connection reuse")
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

    @Test("requests that close their connection share it first, then leave nothing idle")
    func closingRequestsShareThenClose() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))]) {
            server in
            try await withCurlEngine { engine in
                let opening = try fixtureRequest("https://origin.test/", server: server)
                _ = try await engine.perform(opening)
                var closingRequest = opening
                closingRequest.closesConnection = true
                let closing = closingRequest
                // Two streams on the one HTTP/2 connection: the first to finish must not cut the other off.
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<2 { group.addTask { try await engine.perform(closing).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses == [200, 200])
                #expect(server.activity.tlsHandshakesCompleted == 1, "both reused the opening connection")
                try await server.waitUntil("the connection closed by its last user") { $0.connectionsClosed == 1 }
                _ = try await engine.perform(opening)
                #expect(server.activity.connectionsAccepted == 2, "nothing idle was left to reuse")
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
                        url: "https://\(host)/", connectTo: [rule], trust: .only(caFile: server.caFile))
                    #expect(try await engine.perform(request).status == 200)
                }
                #expect(server.activity.tlsHandshakesCompleted == 2, "one handshake per distinct host name")
            }
        }
    }
}

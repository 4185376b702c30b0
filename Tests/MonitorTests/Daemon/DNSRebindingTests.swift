import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 32 §1: a page whose name rebinds to 127.0.0.1 must neither write nor read through the real daemon's
/// endpoint; the listen address, `localhost` and the names of `endpoint.hosts` still work.
@Suite("DNS rebinding", .timeLimit(.minutes(10)), .endToEndSlot)
struct DNSRebindingTests {
    static let domain = "shop.origin.test"

    /// One request over raw TCP, as a browser sends it, and the whole answer (the request asks the server to close).
    static func send(_ request: String, port: Int) async throws -> String {
        let connection = try EndpointLimitsTests.RawConnection(port: port, guardSeconds: 60)
        connection.send(request)
        return try #require(await connection.read(), "no answer to \(request.prefix(60))")
    }

    static func status(_ answer: String) -> Int? {
        Int(answer.split(separator: " ", maxSplits: 2).dropFirst().first ?? "")
    }

    static func body(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    static func get(_ path: String, host: String, port: Int) async throws -> String {
        try await send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
    }

    static func silence(host: String, origin: String?, port: Int, reason: String) async throws -> String {
        let json = #"{"all": true, "for": "1h", "reason": "\#(reason)", "author": "alice"}"#
        let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
        return try await send(
            "POST /api/v1/silences HTTP/1.1\r\nHost: \(host)\r\n\(originLine)Content-Type: application/json\r\n"
                + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)", port: port)
    }

    @Test(
        "the rebinding request byte for byte gets 421 and nothing on every route; localhost, the address and endpoint.hosts work"
    )
    func rebinding() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h",
                extra: "endpoint:\n  hosts: [Status.Example.test]\n")
            let daemon = try fixture.startDaemon()
            try await daemon.waitForLog("endpoint listening", timeout: .seconds(120))
            let address = try StatusPageBrowserTests.listenAddress(daemon)
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            try await eventually("a first check", timeout: .seconds(120), log: daemon) {
                try await DaemonTests.checks(fixture).count >= 1
            }

            // The request of the issue, byte for byte but for the port and a Connection: close to end the read.
            let body = #"{"all": true, "ends_at": "9999-12-31T23:59:59Z", "reason": "CDN move", "author": "alice"}"#
            let rebinding = try await Self.send(
                "POST /api/v1/silences HTTP/1.1\r\nHost: evil.example:\(port)\r\nOrigin: http://evil.example:\(port)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                    + body, port: port)
            #expect(Self.status(rebinding) == 421, "\(rebinding)")
            #expect(Self.body(rebinding).contains("endpoint.hosts"), "the refusal says what to do")

            let routes = [
                "/", "/domains/\(Self.domain)", "/metrics", "/healthz", "/status", "/style.css", "/api/v1/domains",
                "/api/v1/domains/\(Self.domain)", "/api/v1/domains/\(Self.domain)/history", "/api/v1/silences",
                "/api/v1/openapi.json", "/badge/\(Self.domain).svg",
            ]
            for route in routes {
                let answer = try await Self.get(route, host: "evil.example:\(port)", port: port)
                #expect(Self.status(answer) == 421, "\(route): \(answer.prefix(200))")
                #expect(!Self.body(answer).contains(Self.domain), "\(route) leaks data: \(answer.prefix(300))")
                #expect(!Self.body(answer).contains("aasa_"), "\(route) leaks metrics")
            }
            let delete = try await Self.send(
                "DELETE /api/v1/silences/1 HTTP/1.1\r\nHost: evil.example:\(port)\r\nOrigin: http://evil.example:\(port)"
                    + "\r\nConnection: close\r\n\r\n", port: port)
            #expect(Self.status(delete) == 421, "\(delete)")

            // The names the endpoint is reached by, with or without a port, still read everything.
            for host in ["localhost:\(port)", address, "LOCALHOST", "status.example.test", "status.example.test."] {
                let answer = try await Self.get("/api/v1/silences", host: host, port: port)
                #expect(Self.status(answer) == 200, "\(host): \(answer.prefix(200))")
            }
            let page = try await Self.get("/domains/\(Self.domain)", host: "localhost:\(port)", port: port)
            #expect(Self.status(page) == 200 && Self.body(page).contains(Self.domain), "\(page.prefix(200))")

            // Writes: another site's page is refused even with a good Host; the endpoint's own origin and a client
            // without Origin (curl, scripts) write.
            for foreign in ["http://evil.example", "null", "http://127.0.0.2:\(port)"] {
                let answer = try await Self.silence(host: address, origin: foreign, port: port, reason: "csrf")
                #expect(Self.status(answer) == 403, "Origin \(foreign): \(answer.prefix(200))")
            }
            let own = try await Self.silence(
                host: "localhost:\(port)", origin: "http://localhost:\(port)", port: port, reason: "own page")
            #expect(Self.status(own) == 201, "\(own.prefix(300))")
            let script = try await Self.silence(host: address, origin: nil, port: port, reason: "script")
            #expect(Self.status(script) == 201, "\(script.prefix(300))")

            // Only the two legitimate silences exist: nothing the refused requests sent was stored.
            let listed = Self.body(try await Self.get("/api/v1/silences", host: address, port: port))
            #expect(listed.contains("own page") && listed.contains("script"), "\(listed)")
            #expect(!listed.contains("CDN move") && !listed.contains("csrf"), "\(listed)")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

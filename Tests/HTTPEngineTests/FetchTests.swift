import EndToEndSlot
import Foundation
import HTTPEngine
import TestSupport
import Testing

@Suite("Fetching over TLS", .endToEndSlot)
struct FetchTests {
    @Test("a valid certificate: status, body, connected IP and the chain as minted")
    func validFetchReadsChain() async throws {
        try await withFixtureServer(
            certificate: .validViaIntermediate(for: "origin.test"),
            routes: [FixtureRoute("/hello", .text("hello"))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/hello", server: server)
                request.readsCertificate = true
                let response = try await engine.perform(request)
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "hello")
                #expect(response.primaryIP == "127.0.0.1")
                #expect(response.primaryPort == server.port)
                #expect(response.redirectURL == nil)
                #expect(response.timings.total > .zero)
                #expect(response.timings.tlsHandshakeDone >= response.timings.connect)
                // The server sends its leaf and an intermediate: the certificate read is the leaf, not the issuer.
                let leaf = try #require(response.certificate)
                #expect(leaf.subject == server.certificate.subject)
                #expect(leaf.issuer == server.certificate.issuer)
                #expect(leaf.subjectAlternativeNames == ["origin.test"])
                #expect(leaf.notBefore == server.certificate.notBefore)
                #expect(leaf.notAfter == server.certificate.notAfter)
            }
        }
    }

    @Test("requests go direct unless a proxy is named, and a named proxy is really used")
    func proxyIsExplicit() async throws {
        let deadProxy = try await refusedPort()
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("ok"))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                #expect(try await engine.perform(request).status == 200)
                request.proxy = "http://127.0.0.1:\(deadProxy)"
                let failure = await #expect(throws: HTTPFailure.self) { try await engine.perform(request) }
                #expect(failure?.kind == .connect)
            }
        }
    }

    @Test("the certificate is read over HTTP/1.1 as over HTTP/2")
    func certificateOverHTTP1() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), protocols: .http1Only, routes: [FixtureRoute("/", .text("ok"))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.readsCertificate = true
                let response = try await engine.perform(request)
                #expect(response.httpVersion == .http1_1)
                #expect(response.certificate?.subject == server.certificate.subject)
                #expect(response.certificate?.subjectAlternativeNames == ["origin.test"])
            }
        }
    }

    @Test("a certificate expiring in five days reports its end date")
    func expiringSoon() async throws {
        try await withFixtureServer(
            certificate: .expiringSoon(for: "origin.test", days: 5), routes: [FixtureRoute("/", .text("ok"))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.readsCertificate = true
                let leaf = try #require(try await engine.perform(request).certificate)
                let daysLeft = leaf.notAfter.timeIntervalSinceNow / 86_400
                #expect(daysLeft > 4.9 && daysLeft <= 5)
            }
        }
    }

    @Test("a 301 is reported, not followed, with its absolute target")
    func redirectIsNotFollowed() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"),
            routes: [FixtureRoute("/old", .redirect(to: "/new")), FixtureRoute("/new", .text("new"))]
        ) { server in
            try await withCurlEngine { engine in
                let response = try await engine.perform(try fixtureRequest("https://origin.test/old", server: server))
                #expect(response.status == 301)
                #expect(response.redirectURL == "https://origin.test/new")
                #expect(response.headers.first("location") == "/new")
                #expect(server.requests.map(\.path) == ["/old"])
            }
        }
    }

    @Test("repeated header fields are all kept and names match in any case")
    func multiValuedHeaders() async throws {
        let headers = [("Link", "<a>; rel=x"), ("Link", "<b>; rel=y"), ("X-Custom", "v")]
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"),
            protocols: .http1Only,
            routes: [FixtureRoute("/", .text("ok", headers: headers))]
        ) { server in
            try await withCurlEngine { engine in
                let response = try await engine.perform(try fixtureRequest("https://origin.test/", server: server))
                #expect(response.httpVersion == .http1_1)
                #expect(response.headers["link"] == ["<a>; rel=x", "<b>; rel=y"])
                #expect(response.headers["LINK"] == response.headers["Link"])
                #expect(response.headers.first("x-CUSTOM") == "v")
                #expect(response.headers.first("content-length") == "2")
                #expect(!response.headers.contains("HTTP/1.1 200 OK"), "the status line is not a header")
            }
        }
    }

    @Test("different user agents get different answers")
    func perUserAgentAnswers() async throws {
        let route = FixtureRoute("/aasa") { request in
            request.userAgent?.contains("AASA-Bot") == true ? .text("apple") : .text("browser")
        }
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [route]) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/aasa", server: server)
                request.userAgent = "AASA-Bot/1.0"
                let apple = try await engine.perform(request)
                request.userAgent = "Mozilla/5.0"
                let browser = try await engine.perform(request)
                #expect(String(decoding: apple.body, as: UTF8.self) == "apple")
                #expect(String(decoding: browser.body, as: UTF8.self) == "browser")
                #expect(server.requests.map(\.userAgent) == ["AASA-Bot/1.0", "Mozilla/5.0"])
            }
        }
    }

    @Test("a POST delivers its body and headers to the server")
    func postWithBody() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "hooks.test"), routes: [FixtureRoute("/hook", .text("", status: 204))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://hooks.test/hook", server: server, host: "hooks.test")
                request.method = "POST"
                request.body = Array(#"{"event":"firing"}"#.utf8)
                request.headers = ["Content-Type": "application/json", "X-Signature": "sha256=abc"]
                let response = try await engine.perform(request)
                #expect(response.status == 204)
                let received = try #require(try await server.waitForRequests(count: 1).first)
                #expect(received.method == "POST")
                #expect(received.bodyText == #"{"event":"firing"}"#)
                #expect(received.headerValues("content-type") == ["application/json"])
                #expect(received.headerValues("x-signature") == ["sha256=abc"])
            }
        }
    }

    @Test("a combined bundle of the system roots plus an extra CA is trusted")
    func systemPlusExtraCA() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("ok"))]) {
            server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.trust = .systemAnd(extraCAFile: server.caFile)
                #expect(try await engine.perform(request).status == 200)
                request.trust = .system
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .tlsUntrusted)
            }
        }
    }

    @Test("https-only refuses a plain http URL before connecting")
    func httpsOnlyRefusesHTTP() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("ok"))]) {
            server in
            try await withCurlEngine { engine in
                let request = try fixtureRequest("http://origin.test/", server: server)
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .other)
                #expect(failure.curlCode == 1, "CURLE_UNSUPPORTED_PROTOCOL")
                #expect(server.activity.connectionsAccepted == 0)
            }
        }
    }
}

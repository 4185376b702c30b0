import EndToEndSlot
import Foundation
import HTTPEngine
import TestSupport
import Testing

@Suite("Classifying failures", .endToEndSlot)
struct FailureClassificationTests {
    @Test("an expired certificate is tls.expired, described by a second handshake")
    func expired() async throws {
        try await withFixtureServer(certificate: .expired(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))])
        { server in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(
                    try fixtureRequest("https://origin.test/", server: server), on: engine)
                #expect(failure.kind == .tlsExpired)
                #expect(failure.identifier == "tls.expired")
                #expect(failure.validityProblem == .expired)
                #expect(failure.curlCode == 60)
                #expect(failure.verifyResult == 10)
                #expect(failure.curlMessage.contains("expired"))
                let leaf = try #require(failure.certificate)
                #expect(leaf.subject == server.certificate.subject)
                #expect(leaf.notAfter == server.certificate.notAfter)
                #expect(leaf.isExpired(at: Date()))
                #expect(server.requests.isEmpty, "the describing handshake sends no HTTP request")
            }
        }
    }

    @Test("the describing handshake connects afresh and never sends the caller's method, headers or body")
    func describingHandshakeSendsNothing() async throws {
        try await withFixtureServer(
            certificate: .expired(for: "hooks.test"), routes: [FixtureRoute("/hook", .text(""))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://hooks.test/hook", server: server, host: "hooks.test")
                request.method = "PUT"
                request.headers = ["Authorization": "Bearer secret-token"]
                request.body = Array("{}".utf8)
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .tlsExpired)
                #expect(failure.certificate != nil)
                #expect(server.activity.connectionsAccepted == 2, "a new connection for the second handshake")
                try await server.waitUntil("the describing handshake") { $0.tlsHandshakesCompleted == 1 }
                #expect(server.requests.isEmpty, "no request, so no credentials, reached the unverified server")
            }
        }
    }

    @Test("a not-yet-valid certificate is tls.expired with the not-yet-valid reason")
    func notYetValid() async throws {
        try await withFixtureServer(
            certificate: .notYetValid(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))]
        ) { server in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(
                    try fixtureRequest("https://origin.test/", server: server), on: engine)
                #expect(failure.kind == .tlsExpired)
                #expect(failure.validityProblem == .notYetValid)
                #expect(failure.verifyResult == 9)
                let leaf = try #require(failure.certificate)
                #expect(leaf.notBefore == server.certificate.notBefore)
                #expect(leaf.isNotYetValid(at: Date()))
            }
        }
    }

    @Test("a certificate from an unknown CA is tls.untrusted, with its issuer described")
    func untrusted() async throws {
        try await withFixtureServer(
            certificate: .untrusted(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))]
        ) { server in
            try await withCurlEngine { engine in
                let failure = try await expectFailure(
                    try fixtureRequest("https://origin.test/", server: server), on: engine)
                #expect(failure.kind == .tlsUntrusted)
                #expect(failure.identifier == "tls.untrusted")
                #expect([18, 19, 20, 21].contains(failure.verifyResult))
                let leaf = try #require(failure.certificate)
                #expect(leaf.issuer == "CN=Untrusted Stranger CA")
                #expect(leaf.subjectAlternativeNames == ["origin.test"])
            }
        }
    }

    @Test(
        "a certificate for another name is tls.hostname, described by a second handshake when asked",
        arguments: [false, true])
    func wrongHost(describes: Bool) async throws {
        try await withFixtureServer(
            certificate: .wrongHost(for: "origin.test"), routes: [FixtureRoute("/", .text("x"))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.readsCertificate = true
                request.describesRejectedCertificate = describes
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .tlsHostname)
                #expect(failure.identifier == "tls.hostname")
                #expect(failure.curlCode == 60)
                if describes {
                    let leaf = try #require(failure.certificate)
                    #expect(leaf.subjectAlternativeNames == ["wrong-host.test"])
                    #expect(server.activity.connectionsAccepted == 2, "a second, non-verifying handshake")
                    #expect(server.requests.isEmpty, "neither handshake sent a request to the wrong host")
                } else {
                    #expect(failure.certificate == nil)
                    #expect(server.activity.connectionsAccepted == 1, "no second, non-verifying handshake")
                }
            }
        }
    }

    /// How an oversized body arrives.
    enum OversizedBody: String, CaseIterable {
        /// 1 MiB without a length: only the write callback can stop it (libcurl 7.88).
        case chunked
        /// A declared Content-Length over the cap: MAXFILESIZE_LARGE refuses it up front.
        case declared

        var response: FixtureResponse {
            switch self {
            case .chunked: .chunked(totalBytes: 1 << 20)
            case .declared: FixtureResponse(body: .bytes(Array(repeating: 0x61, count: 200_000)))
            }
        }
    }

    @Test("a body over the cap is too_large, whether chunked or declared", arguments: OversizedBody.allCases)
    func tooLarge(body: OversizedBody) async throws {
        let response = body.response
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/big", response)]) {
            server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/big", server: server)
                request.maxBodyBytes = 131_072
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .tooLarge)
                #expect(failure.identifier == "too_large")
                #expect(failure.curlCode == (body == .chunked ? 23 : 63), "write error or file size exceeded")
                #expect(failure.status == 200)
            }
        }
    }

    @Test("a body exactly at the cap is accepted")
    func bodyAtCap() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .chunked(totalBytes: 131_072))]
        ) { server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.maxBodyBytes = 131_072
                #expect(try await engine.perform(request).body.count == 131_072)
            }
        }
    }

    @Test("without a cap of its own, a request still stops an endless body at the default limit")
    func defaultCap() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "origin.test"),
            routes: [FixtureRoute("/", .chunked(totalBytes: 2 * HTTPRequest.defaultMaxBodyBytes))]
        ) { server in
            try await withCurlEngine { engine in
                let request = try fixtureRequest("https://origin.test/", server: server)
                #expect(request.maxBodyBytes == HTTPRequest.defaultMaxBodyBytes)
                let failure = try await expectFailure(request, on: engine)
                #expect(failure.kind == .tooLarge)
            }
        }
    }

    @Test("a server that never answers is a timeout")
    func timeout() async throws {
        try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .never)]) {
            server in
            try await withCurlEngine { engine in
                var request = try fixtureRequest("https://origin.test/", server: server)
                request.timeout = .milliseconds(500)
                let timed = request
                // The fixture never answers, so only a timeout ends the request. The wait is a hang guard far above
                // 500 ms, yet below the request's other limit (30 s): a request that ignored its timeout fails here.
                let failure = try await finishes("the 500 ms timeout", within: .seconds(20)) {
                    try await expectFailure(timed, on: engine)
                }
                #expect(failure.kind == .timeout)
                #expect(failure.curlCode == 28)
            }
        }
    }

    @Test("a refused connection is connect")
    func refused() async throws {
        let port = try await refusedPort()
        try await withCurlEngine { engine in
            let request = HTTPRequest(
                url: "https://refused.test/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout,
                connectTo: [try ConnectToRule(parsing: "refused.test:443:127.0.0.1:\(port)")])
            let failure = try await expectFailure(request, on: engine)
            #expect(failure.kind == .connect)
            #expect(failure.curlCode == 7)
        }
    }

    @Test("a name that does not resolve is dns, not a timeout")
    func unresolvable() async throws {
        try await withCurlEngine { engine in
            // How fast the machine's resolver says no is not ours to judge: the limits leave it 30 s, and the wait is
            // a hang guard beyond them.
            let request = HTTPRequest(
                url: "https://nonexistent.invalid/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout)
            let failure = try await finishes("the DNS failure", within: .seconds(120)) {
                try await expectFailure(request, on: engine)
            }
            #expect(failure.kind == .dns)
            #expect(failure.identifier == "dns")
            #expect(failure.curlCode == 6)
        }
    }

    @Test(
        "libcurl's code and OpenSSL's verify result give the kind",
        arguments: [
            (6, 0, false, HTTPFailure.Kind.dns, HTTPFailure.ValidityProblem?.none),
            (5, 0, false, .dns, nil),
            (7, 0, false, .connect, nil),
            (28, 0, false, .timeout, nil),
            (63, 0, false, .tooLarge, nil),
            (23, 0, true, .tooLarge, nil),
            (23, 0, false, .other, nil),
            (60, 10, false, .tlsExpired, .expired),
            (60, 9, false, .tlsExpired, .notYetValid),
            (60, 0, false, .tlsHostname, nil),
            (60, 62, false, .tlsHostname, nil),
            (60, 20, false, .tlsUntrusted, nil),
            (60, 19, false, .tlsUntrusted, nil),
            (35, 0, false, .tlsProtocol, nil),
            (35, 1, false, .tlsProtocol, nil),
            (35, 10, false, .tlsExpired, .expired),
            (59, 0, false, .tlsProtocol, nil),
            (58, 0, false, .tlsProtocol, nil),
            (83, 0, false, .tlsProtocol, nil),
            (56, 0, false, .other, nil),
            (8, 0, false, .other, nil),
        ])
    func classificationTable(
        curlCode: Int, verifyResult: Int, exceeded: Bool, kind: HTTPFailure.Kind,
        validity: HTTPFailure.ValidityProblem?
    ) {
        let (classified, problem) = HTTPFailure.classify(
            curlCode: curlCode, verifyResult: verifyResult, exceededBodyLimit: exceeded)
        #expect(classified == kind)
        #expect(problem == validity)
    }

    @Test("plain text where a TLS handshake is expected is tls.protocol")
    func plainTextIsProtocolFailure() async throws {
        let listener = try StalledListener(reply: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { listener.close() }
        try await withCurlEngine { engine in
            let request = HTTPRequest(
                url: "https://origin.test/", timeout: fixtureTimeout, connectTimeout: fixtureTimeout,
                connectTo: [try ConnectToRule(parsing: "origin.test:443:127.0.0.1:\(listener.port)")])
            let failure = try await expectFailure(request, on: engine)
            #expect(failure.kind == .tlsProtocol)
            #expect(failure.identifier == "tls.protocol")
            #expect(failure.curlCode == 35)
        }
    }
}

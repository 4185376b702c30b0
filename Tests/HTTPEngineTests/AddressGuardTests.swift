import EndToEndSlot
import HTTPEngine
import TestSupport
import Testing

/// Issue 26 §4, "SSRF past the metadata guard": a request with `refusedAddresses` never connects to an address in
/// them, judged on the address libcurl connects to, whatever the URL's notation, after name resolution and on a
/// reused connection.
@Suite("Refused addresses", .endToEndSlot)
struct AddressGuardTests {
    static let metadataGuard = [
        AddressBlock("169.254.0.0/16", name: "link-local"), AddressBlock("fe80::/10", name: "link-local"),
    ].compactMap(\.self)

    @Test(
        "every notation of a link-local address falls in its block",
        arguments: [
            "169.254.169.254", "::ffff:a9fe:a9fe", "0:0:0:0:0:FFFF:A9FE:A9FE", "::FFFF:169.254.169.254",
            "0000:0000:0000:0000:0000:ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "::a9fe:a9fe", "fe80::1", "FE80::1",
            "fe80:0:0:0:0:0:0:1%eth0", "[febf::ffff]",
        ])
    func notations(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(Self.metadataGuard.contains { $0.contains(address) }, "\(address)")
    }

    @Test(
        "addresses outside the blocks are not refused",
        arguments: ["127.0.0.1", "::1", "::", "169.255.0.1", "10.0.0.1", "::ffff:7f00:1", "fec0::1", "2001:db8::1"])
    func outside(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(!Self.metadataGuard.contains { $0.contains(address) }, "\(address)")
    }

    @Test(
        "a request to a refused address fails as refused, without connecting, however the URL spells it",
        arguments: [
            ("http://[::ffff:a9fe:a9fe]:8080/", nil, "169.254.169.254"),
            ("http://[0:0:0:0:0:FFFF:A9FE:A9FE]:8080/", nil, "169.254.169.254"),
            ("http://2852039166/latest/meta-data", nil, "169.254.169.254"),
            ("http://[fe80::1]:8080/", nil, "fe80::1"),
            // A name that resolves to the metadata service (libcurl's resolve cache stands in for DNS).
            ("http://metadata.test/", "metadata.test:80:169.254.169.254:80", "169.254.169.254"),
            ("http://router.test/", "router.test:80:[fe80::1]:80", "fe80::1"),
        ] as [(String, String?, String)])
    func refusedBeforeConnecting(url: String, connectTo: String?, address: String) async throws {
        try await withCurlEngine { engine in
            var request = HTTPRequest(
                url: url, method: "POST", body: Array("{}".utf8), timeout: fixtureTimeout,
                connectTimeout: fixtureTimeout, httpsOnly: false,
                connectTo: try connectTo.map { [try ConnectToRule(parsing: $0)] } ?? [])
            request.refusedAddresses = Self.metadataGuard
            let guarded = request
            // A hang guard beyond the request's limits: whether the guard refused is `failure.refused`, not the time.
            let failure = try await finishes("the refusal", within: .seconds(120)) {
                try await expectFailure(guarded, on: engine)
            }
            let refused = try #require(failure.refused, "\(failure)")
            // The address as connected to: IPv4-mapped when the URL gave IPv6 (::ffff:169.254.169.254).
            #expect((refused.address.embeddedIPv4 ?? refused.address) == IPAddress(address))
            #expect(refused.block.name == "link-local")
            #expect(failure.kind == .connect)
            #expect(failure.curlMessage.contains("\(address) (link-local"), "\(failure.curlMessage)")
        }
    }

    @Test("a listening server in a refused block gets no connection, and a reused connection no request")
    func newAndReusedConnections() async throws {
        try await withFixtureServer(
            certificate: .valid(for: "receiver.test"), protocols: .http1Only, routes: [FixtureRoute("/", .text("ok"))]
        ) { server in
            try await withCurlEngine { engine in
                let loopback = try #require(AddressBlock("127.0.0.0/8", name: "loopback"))
                var refused = try fixtureRequest("https://receiver.test/", server: server, host: "receiver.test")
                refused.refusedAddresses = [loopback]
                let first = try await expectFailure(refused, on: engine)
                #expect(first.refused?.address == IPAddress("127.0.0.1"), "\(first)")
                #expect(server.activity.connectionsAccepted == 0)

                // A connection opened by a request without the guard is judged again before the next request.
                let open = try fixtureRequest("https://receiver.test/", server: server, host: "receiver.test")
                #expect(try await engine.perform(open).status == 200)
                let reused = try await expectFailure(refused, on: engine)
                #expect(reused.refused?.address == IPAddress("127.0.0.1"), "\(reused)")
                #expect(server.requests.count == 1)

                // The guard itself lets other addresses through.
                var allowed = open
                allowed.refusedAddresses = Self.metadataGuard
                #expect(try await engine.perform(allowed).status == 200)
            }
        }
    }
}

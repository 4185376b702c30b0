import Testing

@testable import MonitorDaemon
@testable import MonitorEndpoint

/// The DNS rebinding rule, case by case: which `Host` and `Origin` the endpoint serves (issue 32 §1).
@Suite("request host policy")
struct RequestHostPolicyTests {
    static let policy = RequestHostPolicy(listenHost: "127.0.0.1", configured: ["status.example.com"])

    @Test(
        "Host: IP addresses, localhost, the listen host and endpoint.hosts pass; other names and malformed values do not",
        arguments: [
            ("127.0.0.1:9464", true), ("127.0.0.1", true), ("10.1.2.3:80", true), ("[::1]:9464", true), ("[::1]", true),
            ("localhost:9464", true), ("LocalHost", true), ("localhost.:9464", true), ("status.example.com", true),
            ("Status.Example.COM:443", true), ("evil.example:9464", false), ("evil.example", false),
            ("127.0.0.1.evil.example", false), ("localhost.evil.example", false), ("status.example.com.evil", false),
            ("1.2.3", false), ("256.1.1.1", false), ("0x7f.1", false), ("127.000.0.1", false), ("", false),
            ("localhost:", false), ("localhost:port", false), ("[::1", false), ("[evil]:80", false),
            ("localhost:80:80", false),
        ])
    func host(host: String, allowed: Bool) {
        let verdict = Self.policy.judge(host: host, origin: nil, isWrite: false)
        #expect((verdict == .allowed) == allowed, "\(host): \(verdict)")
        if !allowed { #expect(verdict == .unknownHost(host)) }
    }

    @Test("a request without Host (HTTP/1.0, probes) is no browser's and is served")
    func noHost() {
        #expect(Self.policy.judge(host: nil, origin: nil, isWrite: true) == .allowed)
    }

    @Test(
        "a write's Origin must be the request's own host or a name of the endpoint; reads ignore it",
        arguments: [
            ("127.0.0.1:9464", "http://127.0.0.1:9464", true), ("127.0.0.1:9464", "http://localhost:9464", true),
            ("localhost:9464", "https://status.example.com", true), ("[::1]:9464", "http://[::1]:9464", true),
            ("127.0.0.1:9464", "http://evil.example", false), ("127.0.0.1:9464", "http://127.0.0.2:9464", false),
            ("127.0.0.1:9464", "null", false), ("127.0.0.1:9464", "file://", false),
            ("127.0.0.1:9464", "http://localhost@evil.example", false), ("127.0.0.1:9464", "ftp://localhost", false),
            ("127.0.0.1:9464", "http://localhost/path", false),
        ])
    func origin(host: String, origin: String, allowed: Bool) {
        let verdict = Self.policy.judge(host: host, origin: origin, isWrite: true)
        #expect((verdict == .allowed) == allowed, "\(host) from \(origin): \(verdict)")
        if !allowed { #expect(verdict == .foreignOrigin(origin)) }
        #expect(Self.policy.judge(host: host, origin: origin, isWrite: false) == .allowed, "reads ignore Origin")
    }

    @Test("a listen host that is a name is one of the endpoint's names")
    func listenName() {
        let policy = RequestHostPolicy(listenHost: "monitor.internal", configured: [])
        #expect(policy.judge(host: "monitor.internal:9464", origin: nil, isWrite: false) == .allowed)
        #expect(policy.judge(host: "status.example.com", origin: nil, isWrite: false) != .allowed)
    }
}

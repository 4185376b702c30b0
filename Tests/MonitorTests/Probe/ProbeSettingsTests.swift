import HTTPEngine
import MonitorCheck
import MonitorDaemon
import Testing

@Suite("Probe settings")
struct ProbeSettingsTests {
    @Test("defaults copy Apple's fetcher: its user agent, the 131072-byte cap and its CDN")
    func defaults() {
        let settings = ProbeSettings(version: "1.2.3")
        #expect(settings.appleUserAgent == "AASA-Bot/1.0.0")
        #expect(settings.plainUserAgent == "aasa-monitor/1.2.3")
        #expect(settings.maxBodyBytes == 131_072)
        #expect(settings.timeout == .seconds(10))
        #expect(settings.concurrency == 32)
        #expect(settings.cdnURL(for: "example.com") == "https://app-site-association.cdn-apple.com/a/v1/example.com")
    }

    @Test(
        "the CDN URL has exactly one slash before the domain",
        arguments: ["https://cdn.test/a/v1/", "https://cdn.test/a/v1"])
    func cdnURL(base: String) {
        let settings = ProbeSettings(version: "1", cdnBaseURL: base)
        #expect(settings.cdnURL(for: "xn--bcher-kva.example") == "https://cdn.test/a/v1/xn--bcher-kva.example")
    }

    @Test("a request is marked as routed by connect-to only when a rule matches its host and port")
    func connectToMatching() throws {
        let settings = ProbeSettings(
            version: "1", connectTo: [try ConnectToRule(parsing: "origin.test:443:127.0.0.1:8443")])
        #expect(settings.routesThroughConnectTo("https://origin.test/.well-known/apple-app-site-association"))
        #expect(!settings.routesThroughConnectTo("https://other.test/.well-known/apple-app-site-association"))
        #expect(!settings.routesThroughConnectTo("https://origin.test:8443/"))
    }

    @Test("a concurrency below one is raised to one")
    func concurrencyFloor() {
        #expect(ProbeSettings(version: "1", concurrency: 0).concurrency == 1)
    }
}

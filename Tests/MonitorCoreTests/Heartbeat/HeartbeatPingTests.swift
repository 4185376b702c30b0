import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Heartbeat: what a healthy and an unhealthy daemon ping")
struct HeartbeatPingTests {
    static let settings = HeartbeatConfiguration(url: "https://hc-ping.com/5f2a")

    @Test("healthy pings the URL; unhealthy pings URL/fail, or nothing when fail pings are off")
    func decide() {
        #expect(HeartbeatPing.decide(failure: nil, settings: Self.settings)?.url == "https://hc-ping.com/5f2a")
        let failing = HeartbeatPing.decide(failure: "monitor.store: x", settings: Self.settings)
        #expect(failing?.url == "https://hc-ping.com/5f2a/fail")
        #expect(failing?.failure == "monitor.store: x")
        var quiet = Self.settings
        quiet.failPings = false
        #expect(HeartbeatPing.decide(failure: "monitor.store: x", settings: quiet) == nil)
        #expect(HeartbeatPing.decide(failure: nil, settings: quiet) != nil)
    }

    @Test(
        "/fail goes at the end of the path, before a query, without doubling a slash",
        arguments: [
            ("https://hc-ping.com/5f2a", "https://hc-ping.com/5f2a/fail"),
            ("https://hc-ping.com/5f2a/", "https://hc-ping.com/5f2a/fail"),
            ("https://push.example/api/push/abc?status=up", "https://push.example/api/push/abc/fail?status=up"),
            ("https://push.example", "https://push.example/fail"),
        ])
    func failURL(url: String, expected: String) {
        #expect(HeartbeatPing.failURL(url) == expected)
    }

    @Test("the POST body says ok or fail, why, the version and the time")
    func body() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let ping = HeartbeatPing(url: "https://x.example", failure: "monitor.cdn_unreachable: Apple's CDN")
        let data = try MonitorJSON.encoder().encode(ping.body(version: "1.0", at: at))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["status"] as? String == "fail")
        #expect(object["reason"] as? String == "monitor.cdn_unreachable: Apple's CDN")
        #expect(object["at"] as? String == "2027-01-15T08:00:00Z")
        let healthy = try MonitorJSON.encoder().encode(HeartbeatPing(url: "u", failure: nil).body(version: "1", at: at))
        #expect(String(decoding: healthy, as: UTF8.self).contains(#""reason":null"#))
    }
}

import EndToEndSlot
import Foundation
import Monitor
import Synchronization
import TestSupport
import Testing

/// Issue 25 item 3 with the real daemon: the dead man's switch pings while healthy, fails when Apple's CDN is out of
/// reach, and falls silent when the daemon stops.
@Suite("heartbeat end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct HeartbeatEndToEndTests {
    static let domain = "shop.origin.test"

    @Test("a ping every second while healthy, a /fail ping naming monitor.cdn_unreachable, nothing once stopped")
    func pings() async throws {
        let fixture = try DaemonFixture()
        let routes = [FixtureRoute("/ping/abc", .text("OK")), FixtureRoute("/ping/abc/fail", .text("OK"))]
        try await withFixtureServer(certificate: .valid(for: "localhost"), routes: routes) { pinged in
            try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
                try fixture.writeConfiguration(
                    domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                    extra: """
                        heartbeat:
                          url: https://localhost:\(pinged.port)/ping/abc
                          every: 1s
                          method: post
                          ca_file: \(pinged.caFile)
                        """)
                let oks = { pinged.requests.filter { $0.uri == "/ping/abc" } }
                let fails = { pinged.requests.filter { $0.uri == "/ping/abc/fail" } }
                let daemon = try fixture.startDaemon()
                try await eventually("four pings", log: daemon) { oks().count >= 4 }
                // Timed by when the pings arrived, not by when this test looked (it may look late under load). Pings
                // start a second apart; under load one can arrive up to a second late, so three gaps take at least
                // 2 s (seen: 2.49 s), where pings twice as fast as `every` would take 1.5 s.
                let elapsed = oks()[3].receivedAt - oks()[0].receivedAt
                #expect(elapsed >= .milliseconds(2_000), "pinged faster than every: 1s (\(elapsed))")
                #expect(elapsed < .seconds(8), "\(elapsed)")
                #expect(fails().isEmpty)
                let body = try #require(oks().first.map { String(decoding: $0.body, as: UTF8.self) })
                #expect(body.contains(#""status":"ok""#), "\(body)")
                #expect(oks().allSatisfy { $0.method == "POST" })

                fixture.cdn.withLock { $0 = (503, "busy", []) }
                try await eventually("a /fail ping", log: daemon) { !fails().isEmpty }
                let failure = try #require(fails().first.map { String(decoding: $0.body, as: UTF8.self) })
                #expect(failure.contains(#""status":"fail""#), "\(failure)")
                #expect(failure.contains("monitor.cdn_unreachable"), "\(failure)")

                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)
                let atExit = pinged.requests.count
                // Nothing can arrive from a process that has exited; this only shows no ping was left in flight.
                try await Task.sleep(for: .seconds(2))
                #expect(pinged.requests.count == atExit)
            }
        }
    }
}

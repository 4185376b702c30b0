import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import Synchronization
import TestSupport
import Testing

/// Issue 25 item 3 with the real daemon: the dead man's switch pings while healthy, fails when Apple's CDN is out of
/// reach, and falls silent when the daemon stops.
@Suite("heartbeat end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct HeartbeatEndToEndTests {
    static let domain = "shop.origin.test"

    static let routes = [FixtureRoute("/ping/abc", .text("OK")), FixtureRoute("/ping/abc/fail", .text("OK"))]

    /// The `heartbeat` section pinging `pinged` every `every`, waiting far longer than a loaded machine delays it.
    static func heartbeat(_ pinged: FixtureServer, every: String) -> String {
        """
        heartbeat:
          url: https://localhost:\(pinged.port)/ping/abc
          every: \(every)
          method: post
          timeout: \(DaemonFixture.patientTimeout)
          ca_file: \(pinged.caFile)
        """
    }

    /// The `at` of a POST ping's body: when the daemon built it (whole seconds).
    static func builtAt(_ ping: RecordedRequest) -> Date? {
        let body = try? JSONSerialization.jsonObject(with: Data(ping.body)) as? [String: Any]
        return (body?["at"] as? String).flatMap(RFC3339.date)
    }

    // How fast pings come is no wall-clock bound here (issue 31): the pace is `HeartbeatService`'s
    // `pause(until: started + every)`, on a clock no test moves. These tests judge it by events: pings repeat (the
    // default `every` is 1m, so four within the wait show `every: 1s` is read), and none comes early when `every`
    // is longer than what the test waits for.
    @Test("a ping every second while healthy, a /fail ping naming monitor.cdn_unreachable, nothing once stopped")
    func pings() async throws {
        let fixture = try DaemonFixture()
        try await withFixtureServer(certificate: .valid(for: "localhost"), routes: Self.routes) { pinged in
            try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
                try fixture.writeConfiguration(
                    domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                    extra: Self.heartbeat(pinged, every: "1s"))
                let oks = { pinged.requests.filter { $0.uri == "/ping/abc" } }
                let fails = { pinged.requests.filter { $0.uri == "/ping/abc/fail" } }
                let daemon = try fixture.startDaemon()
                try await eventually("four pings", log: daemon) { oks().count >= 4 }
                #expect(fails().isEmpty)
                let body = try #require(oks().first.map { String(decoding: $0.body, as: UTF8.self) })
                #expect(body.contains(#""status":"ok""#), "\(body)")
                #expect(oks().allSatisfy { $0.method == "POST" })

                fixture.cdn.withLock { $0 = (503, "busy", []) }
                try await eventually("a /fail ping", log: daemon) { !fails().isEmpty }
                let failure = try #require(fails().first.map { String(decoding: $0.body, as: UTF8.self) })
                #expect(failure.contains(#""status":"fail""#), "\(failure)")
                #expect(failure.contains("monitor.cdn_unreachable"), "\(failure)")

                let stopped = Date()
                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)
                // Once every connection of the exited daemon is closed, the server has read all it ever sent: then
                // no ping may have been begun after SIGTERM (a stopping daemon sends nothing). `at` has whole
                // seconds, so one begun within the second of SIGTERM goes unseen; one begun later does not.
                try await eventually("the daemon's connections to the ping server closed") {
                    let activity = pinged.activity
                    return activity.connectionsClosed >= activity.connectionsAccepted
                }
                for ping in pinged.requests {
                    let at = try #require(Self.builtAt(ping), "\(ping.uri) without at")
                    #expect(at <= stopped, "\(ping.uri) built at \(at), after SIGTERM at \(stopped)")
                }
            }
        }
    }

    @Test("no ping comes before `every` has passed: one ping while the daemon checks on, every: 1h")
    func noPingEarly() async throws {
        let fixture = try DaemonFixture()
        try await withFixtureServer(certificate: .valid(for: "localhost"), routes: Self.routes) { pinged in
            try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
                try fixture.writeConfiguration(
                    domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                    extra: Self.heartbeat(pinged, every: "1h"))
                let daemon = try fixture.startDaemon()
                try await eventually("the first ping", log: daemon) { !pinged.requests.isEmpty }
                // Three more checks (interval 1s) after the first ping arrived: the daemon's own schedule moved on by
                // two intervals or more, however slow the machine, and an hour has not passed. A heartbeat that
                // pinged on another clock than `every` (twice per check, in a loop) pings again meanwhile.
                let seen = try await DaemonTests.checks(fixture).count
                try await eventually("three more checks", log: daemon) {
                    try await DaemonTests.checks(fixture).count >= seen + 3
                }
                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)
                try await eventually("the daemon's connections to the ping server closed") {
                    let activity = pinged.activity
                    return activity.connectionsClosed >= activity.connectionsAccepted
                }
                // One ping, `ok` or `/fail`: this is about when, not about what health said.
                #expect(pinged.requests.count == 1, "\(pinged.requests.map(\.uri))")
            }
        }
    }
}

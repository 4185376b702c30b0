import EndToEndSlot
import Foundation
import MonitorDaemon
import Synchronization
import TestSupport
import Testing

/// Issue 35 item 18 with the real daemon: `history` marks the firing a silence held, names the silence, says when
/// it went out, and prints events and outcomes in one order.
@Suite("history of a silenced alert end to end", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct SilencedHistoryEndToEndTests {
    static let domain = SilenceEndToEndTests.domain

    @Test("a firing held by a silence: not sent (silenced … by alice: reason), sent at the end; oldest first")
    func heldFiringInHistory() async throws {
        let fixture = try DaemonFixture()
        fixture.origin.withLock { $0 = (404, "not here") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, receiver, ca in
            try fixture.writeConfiguration(
                domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca,
                extra: SilenceEndToEndTests.alerts + fixture.webhooksSection(receiver: receiver, caFile: ca))
            _ = try await SilenceEndToEndTests.silence(
                fixture, ["add", Self.domain, "--for", "1h", "--reason", "moving the CDN", "--author", "alice"])
            let daemon = try fixture.startDaemon()
            try await eventually("two broken checks", log: daemon) {
                try await DaemonTests.checks(fixture).count >= 2
            }
            _ = try await SilenceEndToEndTests.silence(fixture, ["expire", "1"])
            try await eventually("the held alert sent once the silence ended", log: daemon) {
                SilenceEndToEndTests.alertEvents(receiver) == ["alert.firing"]
            }
            fixture.origin.withLock { $0 = (200, DaemonFixture.version1) }
            try await eventually("the alert resolved and sent", log: daemon) {
                SilenceEndToEndTests.alertEvents(receiver) == ["alert.firing", "alert.resolved"]
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            // Piped, so times are UTC.
            let text = try await MonitorBinary.run(["history", Self.domain, "--config", fixture.configPath])
            #expect(text.status == 0, "\(text.error)")
            let lines = text.output.split(separator: "\n").map(String.init)
            let firings = lines.filter { $0.contains(" alert.firing ") }
            #expect(firings.count == 1, "\(text.output)")
            let firing = try #require(firings.first)
            #expect(firing.contains("code=origin.status"), "\(firing)")
            #expect(firing.contains("not sent (silenced until "), "\(firing)")
            #expect(firing.contains(" by alice: moving the CDN), sent at "), "\(firing)")
            let resolved = try #require(lines.first { $0.contains(" alert.resolved ") })
            #expect(!resolved.contains("not sent"), "\(resolved)")

            // One order: the events' times, then the outcomes' starts, each ascending.
            let heading = try #require(lines.firstIndex(of: "outcomes, oldest first:"), "\(text.output)")
            let eventTimes = lines[1..<heading].map { String($0.prefix(20)) }
            let runStarts = lines[(heading + 1)...].compactMap { line in
                line.range(of: " from ").map { String(line[$0.upperBound...].prefix(20)) }
            }
            #expect(eventTimes.count >= 3 && eventTimes == eventTimes.sorted(), "\(text.output)")
            #expect(runStarts.count >= 2 && runStarts == runStarts.sorted(), "\(text.output)")
            #expect(lines.last?.contains("ready from") == true, "\(text.output)")

            let json = try await MonitorBinary.run(["history", Self.domain, "--json", "--config", fixture.configPath])
            let root = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            let events = try #require(root["events"] as? [[String: Any]])
            let fired = try #require(events.first { $0["kind"] as? String == "alert.firing" })
            #expect(fired["sent"] as? Bool == false, "\(fired)")
            #expect((fired["silenced"] as? [String: Any])?["by"] as? String == "alice", "\(fired)")
            let sentAt = try #require(fired["sent_at"] as? String, "\(fired)")
            #expect(sentAt > (fired["at"] as? String ?? ""), "\(fired)")
            #expect(events.filter { $0["kind"] as? String == "alert.firing" }.count == 1, "\(events)")
        }
    }
}

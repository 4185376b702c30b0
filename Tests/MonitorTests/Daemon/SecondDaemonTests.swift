import EndToEndSlot
import Foundation
import MonitorDaemon
import TestSupport
import Testing

/// Issue 35 §6 with the real binary: a second daemon on a state directory in use stops at once, naming the first;
/// a busy port is said in words, not as `bind(descriptor:ptr:bytes:)` and an errno.
@Suite("a second daemon", .timeLimit(.minutes(10)), .endToEndSlot)
struct SecondDaemonTests {
    static let domain = "shop.origin.test"

    @Test("a second daemon on the same state directory exits 2 naming the first's pid, and the first runs on")
    func sameStateDirectory() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h")
            let first = try fixture.startDaemon()
            try await first.waitForLog("endpoint listening")
            let second = try fixture.startDaemon()
            #expect(try await second.waitForExit() == 2, "\(second.standardError)")
            #expect(
                second.standardError.contains("another daemon (pid \(first.pid)) uses the state directory"),
                "\(second.standardError)")
            #expect(!second.standardError.contains("endpoint listening"), "it got as far as listening")
            #expect(first.isRunning)
            first.send(SIGTERM)
            #expect(try await first.waitForExit() == 0)
            // The lock went with the first daemon (as it would with a SIGKILL): a new one starts.
            let third = try fixture.startDaemon()
            try await third.waitForLog("endpoint listening")
            third.send(SIGKILL)
            #expect(try await third.waitForExit() == 128 + SIGKILL)
            let fourth = try fixture.startDaemon()
            try await fourth.waitForLog("endpoint listening")
            fourth.send(SIGTERM)
            #expect(try await fourth.waitForExit() == 0)
        }
    }

    @Test("a listen address another program holds is named as in use, exit 2")
    func busyPort() async throws {
        // A listening socket of this process takes the port.
        let (holder, port) = try LoopbackSocket.bind(listening: true)
        defer { close(holder) }
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca, interval: "1h")
            let text = try String(contentsOfFile: fixture.configPath, encoding: .utf8)
            try text.replacingOccurrences(of: "listen: 127.0.0.1:0", with: "listen: 127.0.0.1:\(port)")
                .write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
            let daemon = try fixture.startDaemon()
            #expect(try await daemon.waitForExit() == 2, "\(daemon.standardError)")
            #expect(
                daemon.standardError.contains("127.0.0.1:\(port) is in use by another program"),
                "\(daemon.standardError)")
            // What the operator reads (the debug log below it may still quote NIO's error).
            let critical = daemon.standardError.split(separator: "\n").filter { $0.contains("CRITICAL") }
            #expect(critical.count == 1 && !critical.joined().contains("errno"), "\(critical)")
        }
    }
}

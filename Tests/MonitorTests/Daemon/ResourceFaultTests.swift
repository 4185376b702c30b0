import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

/// The real daemon short of file descriptors (`ulimit -n` low, idle connections to its endpoint): it never exits,
/// and the trouble is never a domain finding.
@Suite("daemon resource faults", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct ResourceFaultTests {
    static let domains = ["a.origin.test", "b.origin.test", "c.origin.test"]

    /// Starts the daemon under `ulimit -n limit`.
    static func start(_ fixture: DaemonFixture, limit: Int) throws -> RunningMonitor {
        try RunningMonitor(
            arguments: [
                "-c",
                "ulimit -n \(limit) && exec \"$0\" run --config \"$1\" --log-level debug",
                MonitorBinary.url.path, fixture.configPath,
            ],
            binary: "/bin/sh")
    }

    static func openDescriptors(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// Whether the daemon still runs; when not, records its exit as a failure: no exit is acceptable here, whatever
    /// its cause (it once trapped in libdispatch, issue 26 §1).
    /// How many descriptors the daemon needs once its checks have run: a daemon without a limit, measured.
    static func descriptorsNeeded(_ fixture: DaemonFixture) async throws -> Int {
        let probe = try Self.start(fixture, limit: 1024)
        try await eventually("first checks", log: probe) {
            try await DaemonTests.checks(fixture, domain: Self.domains[2]).count >= 2
        }
        let needed = try Self.openDescriptors(probe.pid)
        probe.send(SIGTERM)
        #expect(try await probe.waitForExit() == 0)
        return needed
    }

    static func stillRunning(_ daemon: RunningMonitor) async throws -> Bool {
        guard !daemon.isRunning else { return true }
        let status = try await daemon.waitForExit()
        Issue.record("the daemon exited with status \(status) while short of descriptors:\n\(daemon.standardError)")
        return false
    }

    @Test("below its descriptor reserve the engine opens no socket: checks are discarded as monitor.resources")
    func engineKeepsReserve() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: Self.domains, origin: origin, cdn: cdn, caFile: ca)
            let needed = try await Self.descriptorsNeeded(fixture)

            // 6 descriptors spare (more while no check holds any), fewer than the engine's reserve (16): enough for
            // libcurl to connect, which it did before the reserve, and every check passed.
            let daemon = try Self.start(fixture, limit: needed + 6)
            try await eventually("a check is discarded for want of descriptors (or the daemon died)", log: daemon) {
                !daemon.isRunning || daemon.standardError.contains("check discarded: this process lacks resources")
            }
            guard try await Self.stillRunning(daemon) else { return }
            #expect(daemon.standardError.contains("file descriptors are free"), "the reason names the descriptors")
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            for domain in Self.domains {
                let runs = try await DaemonTests.checks(fixture, domain: domain).runs
                #expect(runs.map(\.verdict).allSatisfy { $0 == "ready" }, "\(domain): \(runs.map(\.verdict))")
            }
        }
    }

    @Test("idle local connections cannot use up the daemon's descriptors: the endpoint holds them back, checks go on")
    func descriptorsExhausted() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: Self.domains) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: Self.domains, origin: origin, cdn: cdn, caFile: ca)
            let needed = try await Self.descriptorsNeeded(fixture)

            // 20 descriptors spare, fewer than the endpoint's reserve (32): it serves one connection at a time.
            let daemon = try Self.start(fixture, limit: needed + 20)
            try await daemon.waitForLog("endpoint listening")
            let address = try StoreFaultTests.address(daemon)
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            var idle: [EndpointLimitsTests.RawConnection] = []
            for _ in 0..<60 { idle.append(try EndpointLimitsTests.RawConnection(port: port)) }
            try await eventually("the endpoint holds connections back (or the daemon died)", log: daemon) {
                !daemon.isRunning || daemon.standardError.contains("endpoint holds new connections back")
            }
            guard try await Self.stillRunning(daemon) else { return }
            let held = try await DaemonTests.checks(fixture, domain: Self.domains[0]).count
            try await eventually("checks are recorded while the connections are held", log: daemon) {
                guard daemon.isRunning else { return true }
                return try await DaemonTests.checks(fixture, domain: Self.domains[0]).count >= held + 3
            }
            guard try await Self.stillRunning(daemon) else { return }
            let open = try Self.openDescriptors(daemon.pid)
            #expect(open <= needed + 20 - 8, "the endpoint left under 8 descriptors free: \(open) open")
            idle.removeAll()
            let released = try await DaemonTests.checks(fixture, domain: Self.domains[0]).count
            try await eventually("checks are recorded after the connections closed", log: daemon) {
                guard daemon.isRunning else { return true }
                return try await DaemonTests.checks(fixture, domain: Self.domains[0]).count > released
            }
            guard try await Self.stillRunning(daemon) else { return }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            for domain in Self.domains {
                let runs = try await DaemonTests.checks(fixture, domain: domain).runs
                #expect(runs.map(\.verdict).allSatisfy { $0 == "ready" }, "\(domain): \(runs.map(\.verdict))")
            }
            #expect(!daemon.standardError.contains("alert.firing"))
        }
    }
}

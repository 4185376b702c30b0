import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorDaemon
import TestSupport
import Testing

/// The real daemon on a 2 MiB filesystem that fills up: `monitor.store` says so, and it recovers by itself.
///
/// Needs a tmpfs mount (root with CAP_SYS_ADMIN); elsewhere the suite is disabled.
@Suite(
    "daemon on a full disk", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: Tmpfs.canMount, "needs permission to mount a tmpfs"), .endToEndSlot)
struct FullDiskTests {
    static let domain = "shop.origin.test"

    @Test("a full disk is monitor.store and /healthz 503; once space returns the daemon commits again by itself")
    func fullDisk() async throws {
        let fixture = try DaemonFixture()
        let state = fixture.stateDirectory
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(Tmpfs.shell("mount -t tmpfs -o size=2m tmpfs '\(state)'") == 0)
        defer { Tmpfs.shell("umount -l '\(state)'") }
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("a first check", log: daemon) { try await DaemonTests.checks(fixture).count >= 1 }
            let address = try StoreFaultTests.address(daemon)
            // Everything left goes to a filler file: the next commit that needs a new block fails (SQLITE_FULL).
            Tmpfs.shell("dd if=/dev/zero of='\(state)/filler' bs=4k")
            try await eventually("monitor.store for the full disk", timeout: .seconds(60), log: daemon) {
                daemon.standardError.contains("monitor.store: the state database")
                    && daemon.standardError.contains("the disk is full")
            }
            try FileManager.default.removeItem(atPath: state + "/filler")
            let recovered = try await DaemonTests.checks(fixture).count
            try await withCurlEngine { engine in
                try await eventually("commits, checks and /healthz 200 again", timeout: .seconds(60), log: daemon) {
                    let health = try await engine.perform(
                        HTTPRequest(url: "http://\(address)/healthz", httpsOnly: false))
                    guard health.status == 200, daemon.standardError.contains("the state database commits again")
                    else { return false }
                    return try await DaemonTests.checks(fixture).count > recovered
                }
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

/// Mounting a small tmpfs, for the full-disk test.
enum Tmpfs {
    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-mount-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: point) }
        return shell("mount -t tmpfs -o size=64k tmpfs '\(point)' && umount '\(point)'") == 0
    }()

    @discardableResult
    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import BenchmarkSupport
import Foundation
import Synchronization
import TestSupport

/// One soak run: the daemon under kills, a receiver outage and a full disk, then a drain and the audit.
enum SoakRun {
    struct Outcome {
        var report: String
        var failures: [String]
    }

    /// What happened to the daemon during the run.
    struct Chaos {
        var kills = 0
        var crashes: [String] = []
        var fullDisk = "not attempted"
        /// (seconds into the run, VmRSS in kB) of the running daemon, every 5 s.
        var rss: [(Double, Int)] = []
        var drainSeconds = 0.0
    }

    static func run(_ options: SoakOptions) async throws -> Outcome {
        let world = SoakWorld()
        let fleet = try await FixtureServer.start(
            certificate: .valid(for: "*.soak.test"), routes: world.fleetRoutes(domains: options.domains))
        let receiver = try await FixtureServer.start(
            certificate: .valid(for: "localhost"), routes: world.receiverRoutes())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID())").path
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A small file system of its own, so "full" is full for the daemon and nothing else.
        let mounted = shell("/bin/mount", ["-t", "tmpfs", "-o", "size=256m", "tmpfs", state]) == 0
        defer {
            if mounted { _ = shell("/bin/umount", [state]) }
            try? FileManager.default.removeItem(atPath: directory)
        }
        let config = directory + "/config.yml"
        try world.configuration(fleet: fleet, receiver: receiver, options: options, state: state)
            .write(toFile: config, atomically: true, encoding: .utf8)
        func start() throws -> RunningMonitor {
            try RunningMonitor(
                arguments: ["run", "--config", config, "--log-level", "warning"], binary: options.binary)
        }
        var chaos = Chaos()
        chaos.fullDisk = mounted ? "pending" : "skipped: mounting a tmpfs for the state directory failed (needs root)"
        var daemon = try start()
        let filler = state + "/filler"
        var nextKill = Double.random(in: options.killGap)
        var nextSample = 0.0
        let end = options.minutes * 60
        while world.seconds() < end {
            try await Task.sleep(for: .milliseconds(250))
            let now = world.seconds()
            world.receiverDown.withLock { $0 = options.outage.contains(now) }
            if mounted, chaos.fullDisk == "pending", options.fullDisk.contains(now) {
                _ = shell("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=1M"])
                chaos.fullDisk =
                    "state directory full for \(Int(options.fullDisk.upperBound - options.fullDisk.lowerBound)) s"
            }
            if mounted, now > options.fullDisk.upperBound, FileManager.default.fileExists(atPath: filler) {
                try? FileManager.default.removeItem(atPath: filler)
            }
            if !daemon.isRunning {
                let status = try await daemon.waitForExit()
                chaos.crashes.append(
                    "at \(Int(now)) s the daemon exited \(status) by itself: \(daemon.standardError.suffix(1_500))")
                daemon = try start()
            } else if now >= nextKill {
                daemon.send(SIGKILL)
                _ = try await daemon.waitForExit()
                chaos.kills += 1
                daemon = try start()
                nextKill = now + Double.random(in: options.killGap)
            }
            if now >= nextSample, let rss = ProcessFigures.residentKilobytes(pid: daemon.pid) {
                chaos.rss.append((now, rss))
                nextSample = now + 5
            }
        }
        world.receiverDown.withLock { $0 = false }
        world.settled.withLock { $0 = true }
        try? FileManager.default.removeItem(atPath: filler)
        // Three intervals for every alert to resolve and Apple's copies to agree: then no new event is made.
        try await Task.sleep(for: .seconds(3 * options.interval))
        // Everything journaled must reach the receiver: wait for the retries (5 s doubling) to drain the outbox.
        let drainStart = Date()
        var quiet = 0
        // Drained when nothing is pending at two looks an interval apart (a last check may still journal one).
        while quiet < 2, Date().timeIntervalSince(drainStart) < 25 * 60 {
            quiet = try await SoakAudit.undelivered(state: state) == 0 ? quiet + 1 : 0
            if !daemon.isRunning {
                chaos.crashes.append(
                    "while draining the daemon exited by itself: \(daemon.standardError.suffix(1_500))")
                daemon = try start()
            }
            try await Task.sleep(for: .seconds(quiet > 0 ? options.interval : 2))
        }
        chaos.drainSeconds = Date().timeIntervalSince(drainStart)
        daemon.send(SIGTERM)
        let stopped = try await daemon.waitForExit(timeout: .seconds(60))
        if stopped != 0 {
            chaos.crashes.append("SIGTERM at the end: exit \(stopped) \(daemon.standardError.suffix(1_500))")
        }
        let audit = try await SoakAudit.audit(state: state, received: world.received.withLock { $0 })
        await fleet.shutdown()
        await receiver.shutdown()
        return SoakReport.outcome(options: options, chaos: chaos, audit: audit)
    }

    /// Runs a command quietly and returns its exit status.
    @discardableResult
    static func shell(_ command: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import BenchmarkSupport
import Foundation
import TestSupport

/// The flood scenario: `/healthz` timed through idle connections reopened as the endpoint closes them.
enum FloodRun {
    /// Runs it once; returns 1 when fewer than 9 in 10 probes were answered within 1 s, else 0.
    static func run(_ options: ExhaustionOptions) async throws -> Int {
        raiseOwnDescriptorLimit()
        let server = try await FixtureFleet.start(
            suffix: "fd.test", domains: options.domains, document: ExhaustionRun.document, cdnMaxAge: 2)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fd-flood-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configPath = directory + "/config.yml"
        try ExhaustionRun.configuration(server: server, options: options, directory: directory)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let daemon = try RunningMonitor(
            arguments: [
                "-c", "ulimit -n \(options.limit) && exec \"$0\" run --config \"$1\" --log-level info",
                options.binary, configPath,
            ],
            binary: "/bin/sh")
        var times: [Duration?] = []
        var reopened = 0
        do {
            try await daemon.waitForLog("endpoint listening", timeout: .seconds(30))
            let port = try ExhaustionRun.port(daemon)
            let flood = IdleFlood(port: port, count: options.flood)
            // The flood fills every slot and the backlog before the first probe.
            try await Task.sleep(for: .seconds(3))
            for _ in 0..<options.probes {
                let start = ContinuousClock.now
                let line = HealthProbe.statusLine(port: port)
                times.append(line?.hasPrefix("HTTP/1.1 ") == true ? ContinuousClock.now - start : nil)
                try await Task.sleep(for: .seconds(1))
            }
            flood.stop()
            reopened = flood.reopenedCount
        } catch {
            FileHandle.standardError.write(Data("flood: \(error)\n".utf8))
        }
        let running = daemon.isRunning
        if running { daemon.send(SIGTERM) }
        let status = try? await daemon.waitForExit(timeout: .seconds(30))
        await server.shutdown()
        let withinSecond = times.filter { $0.map { $0 <= .seconds(1) } ?? false }.count
        let shown = times.map { time in time.map { "\(milliseconds($0)) ms" } ?? "none" }
        ExhaustionRun.say(
            "\(options.flood) idle connections reopened as they close (ulimit -n \(options.limit), "
                + "\(options.domains) domains at 1 s): /healthz answered within 1 s in \(withinSecond) of "
                + "\(times.count) tries (\(shown.joined(separator: ", "))); the endpoint closed \(reopened) idle "
                + "connections; the daemon \(running ? "stopped with \(status.map(String.init) ?? "-")" : "EXITED")")
        return withinSecond * 10 >= times.count * 9 && running && status == 0 ? 0 : 1
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

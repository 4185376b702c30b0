import Foundation
import GRDB
import TestSupport

/// One run of the real daemon against the fleet: its figures, and the requests it made (for the bare replay).
struct DaemonRun {
    var cpuSeconds: Double
    var peakRSSKilobytes: Int
    /// Checks recorded when CPU was read: the sum of `runs.checks`.
    var checks: Int
    /// Runs (rows) in the database after the daemon stopped, and the checks they hold.
    var runs: Int
    var checksAtExit: Int
    /// The database file after a clean stop, and every file of the state directory (with `-wal` and `-shm`).
    var databaseBytes: Int
    var stateDirectoryBytes: Int
    var handshakes: Int
    var requestURLs: [String]

    static func measure(
        binary: String, server: FixtureServer, options: Orchestrator.Options
    ) async throws -> DaemonRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configPath = directory + "/config.yml"
        try Fleet.configuration(
            server: server, domains: options.domains, intervalSeconds: options.intervalSeconds,
            concurrency: options.concurrency, stateDirectory: directory + "/state"
        ).write(toFile: configPath, atomically: true, encoding: .utf8)
        let before = server.activity
        let daemon = try RunningMonitor(
            arguments: ["run", "--config", configPath, "--log-level", "error"], binary: binary)
        // A fixed-duration run, not a test: the benchmark's figures are what happened in this time.
        let end = ContinuousClock.now + .seconds(options.seconds)
        while ContinuousClock.now < end {
            guard daemon.isRunning else {
                throw BenchmarkError("the daemon exited early: \(daemon.standardError.suffix(2_000))")
            }
            try await Task.sleep(for: min(.seconds(1), end - ContinuousClock.now))
        }
        let figures = try ProcessFigures.read(pid: daemon.pid)
        let database = directory + "/state/aasa-monitor.sqlite"
        let checks = try recorded(database).checks
        daemon.send(SIGTERM)
        let status = try await daemon.waitForExit(timeout: .seconds(60))
        guard status == 0 else {
            throw BenchmarkError("the daemon stopped with \(status): \(daemon.standardError.suffix(2_000))")
        }
        let after = server.activity
        let atExit = try recorded(database)
        let sizes = directoryBytes(directory + "/state")
        return DaemonRun(
            cpuSeconds: figures.cpuSeconds, peakRSSKilobytes: figures.peakRSSKilobytes, checks: checks,
            runs: atExit.runs, checksAtExit: atExit.checks, databaseBytes: sizes["aasa-monitor.sqlite"] ?? 0,
            stateDirectoryBytes: sizes.values.reduce(0, +),
            handshakes: after.tlsHandshakesCompleted - before.tlsHandshakesCompleted,
            requestURLs: after.requests[before.requests.count...].compactMap(Fleet.url(of:)))
    }

    /// Checks and runs in the daemon's database, read-only (WAL lets this read while the daemon writes).
    private static func recorded(_ path: String) throws -> (checks: Int, runs: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let row = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT coalesce(sum(checks), 0) AS checks, count(*) AS runs FROM runs")
        }
        return (row?["checks"] ?? 0, row?["runs"] ?? 0)
    }
}

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
    /// The database file after a clean stop and a checkpoint; every file of the state directory (with `-wal` and
    /// `-shm`) as the daemon left it.
    var databaseBytes: Int
    var stateDirectoryBytes: Int
    var handshakes: Int
    /// Database bytes per check after every domain had its first check: what repetition costs.
    var steadyBytesPerCheck: Double?
    var replayLines: [String]

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
        let database = directory + "/state/aasa-monitor.sqlite"
        var firstCycle: Recorded?
        while ContinuousClock.now < end {
            guard daemon.isRunning else {
                throw BenchmarkError("the daemon exited early: \(daemon.standardError.suffix(2_000))")
            }
            try await Task.sleep(for: min(.seconds(1), end - ContinuousClock.now))
            // The steady state starts once every domain has its first run (its report, stored once); the database
            // may not exist yet.
            if firstCycle == nil, let now = try? recorded(database), now.runs >= options.domains {
                firstCycle = now
            }
        }
        let figures = try ProcessFigures.read(pid: daemon.pid)
        let atEnd = try recorded(database)
        let checks = atEnd.checks
        daemon.send(SIGTERM)
        let status = try await daemon.waitForExit(timeout: .seconds(60))
        guard status == 0 else {
            throw BenchmarkError("the daemon stopped with \(status): \(daemon.standardError.suffix(2_000))")
        }
        let after = server.activity
        let atExit = try recorded(database)
        let stateDirectoryBytes = directoryBytes(directory + "/state").values.reduce(0, +)
        try checkpoint(database)
        return DaemonRun(
            cpuSeconds: figures.cpuSeconds, peakRSSKilobytes: figures.peakRSSKilobytes, checks: checks,
            runs: atExit.runs, checksAtExit: atExit.checks,
            databaseBytes: directoryBytes(directory + "/state")["aasa-monitor.sqlite"] ?? 0,
            stateDirectoryBytes: stateDirectoryBytes,
            handshakes: after.tlsHandshakesCompleted - before.tlsHandshakesCompleted,
            steadyBytesPerCheck: firstCycle.flatMap { first in
                atEnd.checks > first.checks
                    ? Double(atEnd.usedBytes - first.usedBytes) / Double(atEnd.checks - first.checks) : nil
            },
            replayLines: replayLines(Array(after.requests[before.requests.count...])))
    }

    /// The run's requests as replay lines, timed from the first.
    private static func replayLines(_ requests: [RecordedRequest]) -> [String] {
        guard let start = requests.map(\.receivedAt).min() else { return [] }
        return requests.sorted { $0.receivedAt < $1.receivedAt }.compactMap { Fleet.replayLine(of: $0, start: start) }
    }

    /// Moves the write-ahead log into the database file and empties it, so the file's size is what the history
    /// takes (a daemon that stopped cleanly has done so already; one that did not left up to a few MB of WAL).
    private static func checkpoint(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
    }

    /// What the database holds at one moment.
    struct Recorded {
        var checks: Int
        var runs: Int
        /// Pages in use (not free) times the page size, as the database stands in this read's snapshot (the
        /// write-ahead log included), so growth shows without a checkpoint.
        var usedBytes: Int
    }

    /// Checks and runs in the daemon's database, read-only (WAL lets this read while the daemon writes).
    private static func recorded(_ path: String) throws -> Recorded {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT coalesce(sum(checks), 0) AS checks, count(*) AS runs FROM runs")
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return Recorded(
                checks: row?["checks"] ?? 0, runs: row?["runs"] ?? 0, usedBytes: (pages - free) * pageSize)
        }
    }
}

import BenchmarkSupport
import Foundation
import GRDB
import MonitorDaemon
import MonitorStore
import TestSupport

/// One run of the real daemon against the fleet: its figures, how its checks and memory grew, what its readers
/// waited for at the end, and the requests it made (for the bare replay; the in-process fleet only).
///
/// The run ends at `seconds` after the daemon started. Then, in this order: its CPU (utime + stime since it
/// started) and peak RSS are read from /proc and the checks recorded from its database, so the readers' load is not
/// counted; the overview (`GET /`), `/metrics` and `status` are timed while it runs; its peak RSS is read again
/// (the readers' cost included); it is stopped with SIGTERM and waited for; the state directory is measured.
struct DaemonRun {
    var cpuSeconds: Double
    /// VmHWM at the end of the run, before the readers; and after them.
    var peakRSSKilobytes: Int
    var peakRSSAfterReadersKilobytes: Int
    /// Bytes written to disk from start to the end of the run (`ProcessFigures.diskWrittenBytes`).
    var diskWrittenBytes: Int
    /// Checks recorded when CPU was read: the sum of `run_spans.checks` (`runs.checks` before v7); a cluster's from
    /// its database.
    var checks: Int
    /// Domains with at least one check when CPU was read.
    var domainsChecked: Int
    /// Runs (rows) in the database after the daemon stopped, and the checks they hold.
    var runs: Int
    var checksAtExit: Int
    /// The database file after a clean stop and a checkpoint; every file of the state directory (with `-wal` and
    /// `-shm`) as the daemon left it.
    var databaseBytes: Int
    var stateDirectoryBytes: Int
    /// TLS handshakes the fleet completed; nil when the fleet does not count them (nginx).
    var handshakes: Int?
    /// Database bytes per check after every domain had its first check: what repetition costs.
    var steadyBytesPerCheck: Double?
    var replayLines: [String]
    /// Checks, domains checked and RSS, sampled through the run.
    var timeline: [Sample]
    var overview: EndpointProbe.Figures
    var metrics: EndpointProbe.Figures
    var status: EndpointProbe.Figures
    /// From SIGTERM to the daemon's exit.
    var stopSeconds: Double

    /// A moment of the run.
    struct Sample {
        var seconds: Double
        var checks: Int
        var domainsChecked: Int
        var rssKilobytes: Int
    }

    static func measure(
        binary: String, target: DaemonFleet.Target, options: DaemonOrchestrator.Options
    ) async throws -> DaemonRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configPath = directory + "/config.yml"
        let endpointPort = try freeLoopbackPort()
        try DaemonFleet.configuration(
            target: target, domains: options.domains, intervalSeconds: options.intervalSeconds,
            concurrency: options.concurrency, stateDirectory: directory + "/state", endpointPort: endpointPort
        ).write(toFile: configPath, atomically: true, encoding: .utf8)
        let before = target.fixture?.activity
        var cluster = try await ClusterNodes.start(
            options.clusterNodes, configPath: configPath, directory: directory, binary: binary)
        let daemon = try RunningMonitor(
            arguments: ["run", "--config", configPath, "--log-level", "error"], environment: cluster?.environment,
            binary: binary)
        // A fixed-duration run, not a test: the benchmark's figures are what happened in this time.
        let start = ContinuousClock.now
        let end = start + .seconds(options.seconds)
        let database = directory + "/state/" + MonitorStore.databaseFileName
        var firstCycle: Recorded?
        var timeline: [Sample] = []
        while ContinuousClock.now < end {
            guard daemon.isRunning else {
                throw BenchmarkError("the daemon exited early: \(daemon.standardError.suffix(2_000))")
            }
            // Every 5 s: at 100,000 domains each read sums 100,000 rows, which should not load the machine. A
            // cluster's longest wait is sampled every second (one indexed query).
            for _ in 0..<5 where ContinuousClock.now < end {
                try await Task.sleep(for: min(.seconds(1), end - ContinuousClock.now))
                if let killAt = options.killNodeAt, ContinuousClock.now - start >= .seconds(killAt) {
                    _ = try cluster?.killLastNodeHoldingLeases()
                }
                try cluster?.sampleWait()
            }
            // The database may not exist yet.
            guard let now = try? recorded(database) else { continue }
            timeline.append(
                Sample(
                    seconds: seconds(ContinuousClock.now - start), checks: now.checks, domainsChecked: now.domains,
                    rssKilobytes: ProcessFigures.residentKilobytes(pid: daemon.pid) ?? 0))
            // The steady state starts once every domain has its first run (its report, stored once).
            if firstCycle == nil, now.domains >= options.domains { firstCycle = now }
        }
        var figures = try ProcessFigures.read(pid: daemon.pid)
        if let cluster { figures.cpuSeconds += try cluster.otherNodesCPUSeconds() }
        var atEnd = try recorded(database)
        if let cluster {
            atEnd.checks = try cluster.checksRecorded()
            try cluster.report(checks: atEnd.checks)
        }
        let overview = try await EndpointProbe.get(port: endpointPort, path: "/", capSeconds: options.readerCapSeconds)
        let metrics = try await EndpointProbe.get(
            port: endpointPort, path: "/metrics", capSeconds: options.readerCapSeconds)
        let status = try await EndpointProbe.status(
            binary: binary, configPath: configPath, capSeconds: options.readerCapSeconds)
        let afterReaders = try ProcessFigures.read(pid: daemon.pid)
        let stopping = ContinuousClock.now
        try await cluster?.stopOthers()
        daemon.send(SIGTERM)
        let exitStatus = try await daemon.waitForExit(timeout: .seconds(600))
        let stopSeconds = seconds(ContinuousClock.now - stopping)
        guard exitStatus == 0 else {
            throw BenchmarkError("the daemon stopped with \(exitStatus): \(daemon.standardError.suffix(2_000))")
        }
        let after = target.fixture?.activity
        let atExit = try recorded(database)
        let stateDirectoryBytes = directoryBytes(directory + "/state").values.reduce(0, +)
        if let keep = options.keepStateDirectory {
            let copy = keep + "/run-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: directory + "/state", toPath: copy)
            print("  state directory kept: \(copy)")
        }
        try checkpoint(database)
        return DaemonRun(
            cpuSeconds: figures.cpuSeconds, peakRSSKilobytes: figures.peakRSSKilobytes,
            peakRSSAfterReadersKilobytes: afterReaders.peakRSSKilobytes, diskWrittenBytes: figures.diskWrittenBytes,
            checks: atEnd.checks,
            domainsChecked: atEnd.domains, runs: atExit.runs, checksAtExit: atExit.checks,
            databaseBytes: directoryBytes(directory + "/state")[MonitorStore.databaseFileName] ?? 0,
            stateDirectoryBytes: stateDirectoryBytes,
            handshakes: before.flatMap { before in
                after.map { $0.tlsHandshakesCompleted - before.tlsHandshakesCompleted }
            },
            steadyBytesPerCheck: firstCycle.flatMap { first in
                atEnd.checks > first.checks
                    ? Double(atEnd.usedBytes - first.usedBytes) / Double(atEnd.checks - first.checks) : nil
            },
            replayLines: before.flatMap { before in
                after.map { replayLines(Array($0.requests[before.requests.count...])) }
            } ?? [],
            timeline: timeline, overview: overview, metrics: metrics, status: status, stopSeconds: stopSeconds)
    }

    /// The run's requests as replay lines, timed from the first.
    private static func replayLines(_ requests: [RecordedRequest]) -> [String] {
        guard let start = requests.map(\.receivedAt).min() else { return [] }
        return requests.sorted { $0.receivedAt < $1.receivedAt }.compactMap {
            DaemonFleet.replayLine(of: $0, start: start)
        }
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
        /// Domains with at least one run.
        var domains: Int
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
            // Since v7 an open run's checks are counted in its domain's state row, which `run_spans` reads; a
            // binary from before (`--binary`) left them in `runs`.
            let spans = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'run_spans'")
            let row = try Row.fetchOne(
                db,
                sql: "SELECT coalesce(sum(checks), 0) AS checks, count(*) AS runs, count(DISTINCT domain) AS domains "
                    + "FROM \(spans == true ? "run_spans" : "runs")")
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return Recorded(
                checks: row?["checks"] ?? 0, runs: row?["runs"] ?? 0, domains: row?["domains"] ?? 0,
                usedBytes: (pages - free) * pageSize)
        }
    }
}

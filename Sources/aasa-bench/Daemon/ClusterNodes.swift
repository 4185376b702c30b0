import BenchmarkSupport
import Foundation
import MonitorEvaluation
import TestSupport

/// `aasa-bench daemon --cluster N`: the run's daemon and N − 1 more on one throwaway PostgreSQL 15, each with its own
/// state directory and endpoint, the same domains (`store: postgres:`). Prints what only a cluster has: checks per
/// node, WAL bytes per check (`pg_stat_wal`) and connections used.
struct ClusterNodes {
    let server: PostgresServer
    let database: String
    let others: [RunningMonitor]
    let environment: [String: String]
    let walAtStart: Int
    /// The last node after `kill -9` (`--kill-node-at`): its CPU until then, the database's time of the kill, and
    /// how many leases it held then.
    private(set) var killed: (pid: Int32, cpuSeconds: Double, at: String, leases: Int)?
    /// The longest a due domain waited for a live node, sampled every few seconds, before and after the kill.
    private(set) var longestWaitBefore: Double = 0
    private(set) var longestWaitAfter: Double = 0

    /// Adds `store:` to the configuration at `configPath` and starts the other nodes; nil for 0 nodes.
    static func start(_ count: Int, configPath: String, directory: String, binary: String) async throws -> ClusterNodes?
    {
        guard count > 0 else { return nil }
        let (server, location) = try await PostgresServer.freshDatabase()
        var environment = ProcessInfo.processInfo.environment
        environment["AASA_PG_URL"] =
            "postgres://\(location.user):\(location.password ?? "")@127.0.0.1:\(location.port)/\(location.database)"
            + "?sslmode=disable"
        // Inherited by `status`, which reads the same configuration at the end of the run.
        setenv("AASA_PG_URL", environment["AASA_PG_URL"] ?? "", 1)
        let text = try String(contentsOfFile: configPath, encoding: .utf8)
        let store = "store:\n  postgres:\n    url_env: AASA_PG_URL\n    node: node-%d\n"
        try (text + String(format: store, 1)).write(toFile: configPath, atomically: true, encoding: .utf8)
        let wal = try Int(server.psql("SELECT wal_bytes FROM pg_stat_wal", database: location.database)) ?? 0
        var others: [RunningMonitor] = []
        for node in 2...max(2, count) where node <= count {
            let state = directory + "/state-\(node)"
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                if line.hasPrefix("state_dir:") { return "state_dir: \(state)" }
                if line.hasPrefix("listen:") { return "listen: 127.0.0.1:0" }
                return String(line)
            }
            let path = directory + "/config-\(node).yml"
            try (lines.joined(separator: "\n") + String(format: store, node)).write(
                toFile: path, atomically: true, encoding: .utf8)
            others.append(
                try RunningMonitor(
                    arguments: ["run", "--config", path, "--log-level", "error"], environment: environment,
                    binary: binary))
        }
        return ClusterNodes(
            server: server, database: location.database, others: others, environment: environment, walAtStart: wal)
    }

    func otherNodesCPUSeconds() throws -> Double {
        try others.filter { $0.pid != killed?.pid }.map { try ProcessFigures.read(pid: $0.pid).cpuSeconds }
            .reduce(0, +) + (killed?.cpuSeconds ?? 0)
    }

    /// Checks the cluster recorded, from the database (not from a node's copy, which lags by its period): the
    /// checks of the runs that ended and of each domain's open run.
    func checksRecorded() throws -> Int {
        let text = try server.psql(
            """
            SELECT (SELECT coalesce(sum(r.checks), 0) FROM runs r JOIN domains d ON d.domain = r.domain
                    WHERE r.id <> d.run_id)
                 + (SELECT coalesce(sum(run_checks), 0) FROM domains)
            """, database: database)
        return Int(text) ?? 0
    }

    /// `kill -9` of the last node, its CPU read just before, once it holds a lease (so that the kill leaves checks
    /// in flight, whose domains wait for the lease to end); false while it holds none.
    mutating func killLastNodeHoldingLeases() throws -> Bool {
        guard killed == nil, let node = others.last else { return true }
        let name = "node-\(others.count + 1)"
        let leases =
            Int(
                try server.psql(
                    "SELECT count(*) FROM domains WHERE owner = '\(name)' AND lease_until > now()",
                    database: database)) ?? 0
        guard leases > 0 else { return false }
        let cpu = try ProcessFigures.read(pid: node.pid).cpuSeconds
        node.send(SIGKILL)
        let at = try server.psql("SELECT now()", database: database)
        killed = (node.pid, cpu, at, leases)
        return true
    }

    /// How long the most overdue domain has waited for a live node: due, and not leased, or leased by the node
    /// that was killed (its leases run out; then another node claims them).
    mutating func sampleWait() throws {
        let dead = killed == nil ? "NULL" : "'node-\(others.count + 1)'"
        let text = try server.psql(
            """
            SELECT coalesce(extract(epoch FROM max(now() - next_due)), 0)::float8 FROM domains
            WHERE next_due < now() AND (owner IS NULL OR owner = \(dead) OR lease_until < now())
            """, database: database)
        let wait = Double(text) ?? 0
        if killed == nil {
            longestWaitBefore = max(longestWaitBefore, wait)
        } else {
            longestWaitAfter = max(longestWaitAfter, wait)
        }
    }

    /// Checks per node, WAL per check and connections, from the database.
    func report(checks: Int) throws {
        let byNode = try server.psql(
            "SELECT checked_by || ' ' || count(*) FROM domains WHERE checked_by IS NOT NULL GROUP BY checked_by ORDER BY 1",
            database: database)
        let wal = (try Int(server.psql("SELECT wal_bytes FROM pg_stat_wal", database: database)) ?? 0) - walAtStart
        let connections = try server.psql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'", database: database)
        print(
            "  cluster of \(others.count + 1): domains last checked by node: \(byNode.replacingOccurrences(of: "\n", with: ", "))"
        )
        print(
            "  PostgreSQL WAL \(wal) bytes = \(checks > 0 ? wal / checks : 0) bytes per check recorded; "
                + "\(connections) connections (this one included)")
        print(
            "  longest wait of a due domain for a live node (sampled every second): "
                + String(format: "%.1f s", longestWaitBefore)
                + (killed == nil ? "" : String(format: " before the kill, %.1f s after", longestWaitAfter)))
        if let killed {
            // A domain not checked since the kill is a lost one only once it is overdue: the schedule's jitter
            // (± 10% of the interval) puts some next checks past the interval.
            let stale = try server.psql(
                """
                SELECT round(extract(epoch FROM now() - '\(killed.at)'::timestamptz)) || ' s after the kill (node-'
                       || \(others.count + 1) || ' held \(killed.leases) leases): ' || count(*) || ' of '
                       || (SELECT count(*) FROM domains) || ' domains not checked since, '
                       || count(*) FILTER (WHERE next_due < now() - interval '30 seconds')
                       || ' of them overdue by more than 30 s'
                FROM domains WHERE checked_at IS NULL OR checked_at < '\(killed.at)'::timestamptz
                """, database: database)
            print("  failover: \(stale)")
        }
    }

    func stopOthers() async throws {
        for node in others { node.send(SIGTERM) }
        for node in others { _ = try await node.waitForExit(timeout: .seconds(120)) }
    }
}

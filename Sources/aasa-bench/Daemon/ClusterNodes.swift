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
        try others.map { try ProcessFigures.read(pid: $0.pid).cpuSeconds }.reduce(0, +)
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
    }

    func stopOthers() async throws {
        for node in others { node.send(SIGTERM) }
        for node in others { _ = try await node.waitForExit(timeout: .seconds(120)) }
    }
}

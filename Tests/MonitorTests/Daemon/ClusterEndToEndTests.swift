import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorEvaluation
import Synchronization
import TestSupport
import Testing

/// Two real daemons on one real PostgreSQL 15 (`store: postgres:`): the promises of a cluster, counted from what
/// the origin, Apple's CDN and the webhook receiver saw and from the database.
@Suite("two daemons on one PostgreSQL", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct ClusterEndToEndTests {
    static let domains = (0..<6).map { "shop\($0).origin.test" }
    static let interval: Double = 20
    /// `http.timeout`; the lease is four of them and 10 s (`ClusterMode.leaseDuration`).
    static let timeout: Double = 5
    static var lease: Double { timeout * 4 + 10 }

    /// A node's configuration: its own state directory and endpoint, the shared database by `url_env`.
    static func configuration(
        _ fixture: DaemonFixture, origin: FixtureServer, cdn: FixtureServer, receiver: FixtureServer, caFile: String,
        node: String
    ) -> String {
        """
        state_dir: \(fixture.stateDirectory)
        interval: \(Int(interval))s
        listen: 127.0.0.1:0
        http:
          timeout: \(Int(timeout))s
          apple_budget: \(Int(timeout))s
          ca_file: \(caFile)
          concurrency: 2
          connect_to: ["\(cdn.connectTo("cdn.test"))", "\(origin.wildcardConnectTo)"]
        cdn:
          base_url: https://cdn.test/a/v1/
          stale_after: 1h
        alerts:
          failure_threshold: 1
        store:
          postgres:
            url_env: AASA_PG_URL
            node: \(node)
        domains:
        \(domains.map { "  - \($0)" }.joined(separator: "\n"))
        \(fixture.webhooksSection(receiver: receiver, caFile: caFile))
        """
    }

    /// The receiver's standard-webhook posts, each `webhook-id` once, as (event type, domain).
    static func posts(_ receiver: FixtureServer) -> [(type: String, domain: String)] {
        receiver.uniqueDeliveries(to: "/standard").compactMap { request in
            let json = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            guard let type = json?["type"] as? String, let domain = json?["domain"] as? String else { return nil }
            return (type, domain)
        }
    }

    /// The checked domains `GET /api/v1/domains` of the endpoint at `address` lists.
    static func listed(_ address: String) async throws -> Set<String> {
        try await withCurlEngine { engine in
            let response = try await engine.perform(
                HTTPRequest(url: "http://\(address)/api/v1/domains", method: "GET", httpsOnly: false))
            let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            let rows = json?["domains"] as? [[String: Any]] ?? []
            return Set(rows.filter { $0["verdict"] as? String == "ready" }.compactMap { $0["domain"] as? String })
        }
    }

    @Test("each domain checked once per interval, each transition posted once, a killed node's domains taken over")
    func sharedFleet() async throws {
        let (server, location) = try await PostgresServer.freshDatabase()
        let url =
            "postgres://\(location.user):\(location.password ?? "")@127.0.0.1:\(location.port)/\(location.database)"
            + "?sslmode=disable"
        var environment = ProcessInfo.processInfo.environment
        environment["AASA_PG_URL"] = url
        let sql = { (query: String) in try server.psql(query, database: location.database) }
        let a = try DaemonFixture()
        let b = try DaemonFixture()
        let started = Date()
        try await a.withServers(domains: Self.domains) { origin, cdn, receiver, ca in
            for (fixture, node) in [(a, "node-a"), (b, "node-b")] {
                try Self.configuration(
                    fixture, origin: origin, cdn: cdn, receiver: receiver, caFile: ca, node: node
                ).write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
            }
            let nodeA = try RunningMonitor(
                arguments: ["run", "--config", a.configPath, "--log-level", "debug"], environment: environment)
            let nodeB = try RunningMonitor(
                arguments: ["run", "--config", b.configPath, "--log-level", "debug"], environment: environment)
            try await eventually("every domain checked, by both nodes between them", log: nodeA) {
                let row = try sql(
                    "SELECT count(*) FILTER (WHERE checked_at IS NOT NULL), count(DISTINCT checked_by) FROM domains")
                return row == "6|2"
            }

            // Either node answers for the whole fleet: its API lists every domain as checked (by either node),
            // and `status` on its host prints every domain.
            for node in [nodeA, nodeB] {
                try await node.waitForLog("endpoint listening")
                let address = try StoreFaultTests.address(node)
                try await eventually("every domain in \(address)'s /api/v1/domains", log: node) {
                    try await Self.listed(address) == Set(Self.domains)
                }
            }
            let status = try RunningMonitor(
                arguments: ["status", "--json", "--config", b.configPath], environment: environment)
            #expect(try await status.waitForExit() == 0, "\(status.standardError)")
            for domain in Self.domains { #expect(status.standardOutput.contains("\"\(domain)\""), "\(domain)") }

            // A silence added through node A's configuration holds on both nodes: its domain posts nothing.
            let silenced = Self.domains[5]
            let silence = try RunningMonitor(
                arguments: [
                    "silence", "add", silenced, "--for", "1h", "--reason", "cutover", "--config", a.configPath,
                ],
                environment: environment)
            #expect(try await silence.waitForExit() == 0, "\(silence.standardError)")
            let loud = Self.domains.filter { $0 != silenced }

            // Every origin breaks: one firing per domain. Node A is paused past its lease in the middle of a check
            // (Apple's CDN answers after 3 s, so a check of A's is caught in flight).
            a.cdnDelay.withLock { $0 = .seconds(3) }
            a.origin.withLock { $0 = (404, "") }
            try await eventually("node A holding a lease", log: nodeA) {
                try sql("SELECT count(*) FROM domains WHERE owner = 'node-a' AND lease_until > now()") != "0"
            }
            nodeA.send(SIGSTOP)
            try await eventually("a firing for each domain", timeout: .seconds(120), log: nodeB) {
                Set(Self.posts(receiver).filter { $0.type == "alert.firing" }.map(\.domain)) == Set(loud)
            }
            try await Task.sleep(for: .seconds(Self.lease * 2))
            nodeA.send(SIGCONT)
            a.cdnDelay.withLock { $0 = .zero }
            // The check A held when paused ends now; its lease was taken meanwhile, so nothing of it is kept.
            try await nodeA.waitForLog("check dropped")
            a.origin.withLock { $0 = (200, DaemonFixture.version1) }
            try await eventually("a resolution for each domain", timeout: .seconds(120), log: nodeA) {
                Set(Self.posts(receiver).filter { $0.type == "alert.resolved" }.map(\.domain)) == Set(loud)
            }
            // Both nodes take part again after the pause, and nothing was posted twice.
            let posts = Self.posts(receiver)
            for domain in loud {
                #expect(
                    posts.filter { $0.domain == domain }.map(\.type) == ["alert.firing", "alert.resolved"], "\(domain)")
            }
            #expect(posts.filter { $0.domain == silenced }.isEmpty, "the silence did not hold")
            #expect(try sql("SELECT count(*) FROM outbox") == "10")
            #expect(
                try sql("SELECT count(*) FROM (SELECT event_id FROM outbox GROUP BY 1 HAVING count(*) > 1) AS d") == "0"
            )

            // Checked once per interval across both nodes, not once per node: committed checks per domain stay
            // within what one schedule allows (an interval less 10% jitter between two checks).
            let elapsed = Date().timeIntervalSince(started)
            let most = Int(elapsed / (Self.interval * 0.9)) + 1
            let checks = try sql(
                """
                SELECT d.domain || ' ' || (d.run_checks + coalesce(
                    (SELECT sum(r.checks) FROM runs r WHERE r.domain = d.domain AND r.id <> d.run_id), 0))
                FROM domains d ORDER BY 1
                """
            ).split(separator: "\n").map { $0.split(separator: " ") }
            #expect(checks.count == 6)
            for row in checks { #expect(Int(row[1])! <= most, "\(row[0]): \(row[1]) checks in \(Int(elapsed)) s") }

            // Node B dies: node A checks every domain within the interval plus 30 s.
            nodeB.send(SIGKILL)
            let killed = ContinuousClock.now
            _ = try await nodeB.waitForExit()
            try await eventually("every domain checked after the kill", timeout: .seconds(120), log: nodeA) {
                Set(cdn.requests.filter { $0.receivedAt > killed }.map(\.uri))
                    == Set(Self.domains.map { "/a/v1/\($0)" })
            }
            for domain in Self.domains {
                let first = cdn.requests.filter { $0.receivedAt > killed && $0.uri == "/a/v1/\(domain)" }
                    .map(\.receivedAt).min()
                let seconds = first.map { ($0 - killed) / .seconds(1) } ?? .infinity
                #expect(seconds <= Self.interval + 30, "\(domain) checked \(seconds) s after the kill")
            }
            nodeA.send(SIGTERM)
            #expect(try await nodeA.waitForExit() == 0)
            for node in [nodeA, nodeB] {
                #expect(!node.standardError.contains(location.password ?? "-"), "the password was logged")
            }
            #expect(nodeA.standardError.contains("joined the cluster"))
        }
    }
}

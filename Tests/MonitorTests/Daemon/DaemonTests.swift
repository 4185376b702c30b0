import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The real `aasa-monitor run` against fixture servers with a 1 s interval: pace, state, propagation, reload,
/// stop and restart, the endpoint.
@Suite("daemon", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct DaemonTests {
    static let domain = "shop.origin.test"

    /// The domain's history runs as the daemon recorded them: how many checks, and the latest outcome.
    static func checks(_ fixture: DaemonFixture, domain: String = domain) async throws -> CheckLog {
        let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
        return CheckLog(runs: try await reader.runs(domain: domain, limit: 1000).reversed())
    }

    /// A domain's runs, oldest first.
    struct CheckLog {
        var runs: [StoredRun]
        /// Every check the runs count.
        var count: Int { runs.reduce(0) { $0 + $1.checks } }
        var last: StoredRun? { runs.last }
        var isEmpty: Bool { runs.isEmpty }
    }

    static func statusJSON(_ fixture: DaemonFixture) async throws -> [String: Any] {
        let run = try await MonitorBinary.run(["status", "--json", "--config", fixture.configPath])
        #expect(run.status == 0, "\(run.error)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    @Test("checks run at the configured pace, status and history read them back, SIGTERM stops cleanly")
    func paceStatusAndStop() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("4 checks", log: daemon) { try await Self.checks(fixture).count >= 4 }
            let checks = try await Self.checks(fixture)
            // One outcome, one run: repeats are counted, not stored.
            #expect(checks.runs.count == 1)
            let run = try #require(checks.last)
            #expect(run.verdict == "ready")
            // Never sooner than the interval minus its jitter (10 %), on average over the run's recorded span.
            #expect(run.lastSeen.timeIntervalSince(run.firstSeen) / Double(run.checks - 1) >= 0.85)

            let status = try await Self.statusJSON(fixture)
            let daemonStatus = try #require(status["daemon"] as? [String: Any])
            #expect(daemonStatus["running"] as? Bool == true)
            #expect(daemonStatus["pid"] as? Int == Int(daemon.pid))
            let domains = try #require(status["domains"] as? [[String: Any]])
            #expect(domains.first?["domain"] as? String == Self.domain)
            #expect(domains.first?["verdict"] as? String == "ready")
            #expect((domains.first?["cdn"] as? [String: Any])?["in_sync"] as? Bool == true)

            let history = try await MonitorBinary.run([
                "history", Self.domain, "--json", "--config", fixture.configPath,
            ])
            #expect(history.status == 0)
            #expect(history.output.contains("origin.first_seen"))

            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
            #expect(daemon.standardError.contains("stopped"))
            let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
            #expect(try await reader.integrityCheck() == ["ok"])
            let stopped = try await Self.statusJSON(fixture)
            #expect((stopped["domains"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("a stale CDN turning in sync is recorded with the measured propagation delay")
    func propagation() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("a first ready check", log: daemon) {
                try await Self.checks(fixture).last?.verdict == "ready"
            }
            fixture.origin.withLock { $0 = (200, DaemonFixture.version2) }
            try await eventually("Apple's copy seen stale", log: daemon) {
                try await Self.checks(fixture).last?.verdict == "cdn_stale"
            }
            fixture.cdn.withLock { $0.1 = DaemonFixture.version2 }
            try await eventually("Apple's copy caught up", log: daemon) {
                try await Self.checks(fixture).last?.verdict == "ready"
            }
            let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
            let events = try await reader.history(domain: Self.domain)
            let kinds = events.map(\.kind.rawValue)
            #expect(kinds.contains("origin.changed"))
            let propagated = try #require(events.last { $0.kind == .cdnPropagated })
            guard case .double(let delay)? = propagated.detail["delay"] else {
                Issue.record("no delay in \(propagated.detail)")
                return
            }
            #expect(delay > 0)
            let state = try #require(try await reader.domainStates(domains: [Self.domain]).first)
            #expect(state.lastPropagationDelay == delay)
            #expect(state.cdnInSync == true)
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    @Test("SIGHUP with a broken configuration keeps the old one; a valid one adds a domain; a restart continues")
    func reloadAndRestart() async throws {
        let fixture = try DaemonFixture()
        let second = "second.origin.test"
        try await fixture.withServers(domains: [Self.domain, second]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("a first check", log: daemon) { try await Self.checks(fixture).count >= 1 }
            try "domains: [unclosed".write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
            daemon.send(SIGHUP)
            try await daemon.waitForLog("configuration not reloaded")
            let before = try await Self.checks(fixture).count
            try await eventually("checks go on with the old configuration", log: daemon) {
                try await Self.checks(fixture).count >= before + 2
            }
            try fixture.writeConfiguration(domains: [Self.domain, second], origin: origin, cdn: cdn, caFile: ca)
            daemon.send(SIGHUP)
            try await daemon.waitForLog("configuration reloaded")
            try await eventually("the added domain checked", log: daemon) {
                try await !Self.checks(fixture, domain: second).isEmpty
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)

            let countBefore = try await Self.checks(fixture).count
            let restarted = try fixture.startDaemon()
            try await eventually("checks continue after a restart", log: restarted) {
                try await Self.checks(fixture).count > countBefore
            }
            let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
            let firstSeen = try await reader.history(domain: Self.domain).filter { $0.kind == .originFirstSeen }
            #expect(firstSeen.count == 1)
            restarted.send(SIGINT)
            #expect(try await restarted.waitForExit() == 0)
        }
    }

    @Test("/metrics, /healthz and /status answer on the listen address")
    func endpoint() async throws {
        let fixture = try DaemonFixture()
        try await fixture.withServers(domains: [Self.domain]) { origin, cdn, _, ca in
            try fixture.writeConfiguration(domains: [Self.domain], origin: origin, cdn: cdn, caFile: ca)
            let daemon = try fixture.startDaemon()
            try await eventually("a first check", log: daemon) { try await Self.checks(fixture).count >= 1 }
            let line = try #require(
                daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") })
            let address = try #require(line.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8))
            try await withCurlEngine { engine in
                func get(_ path: String) async throws -> HTTPResponse {
                    try await engine.perform(HTTPRequest(url: "http://\(address)\(path)", httpsOnly: false))
                }
                let metrics = try await get("/metrics")
                #expect(metrics.status == 200)
                let text = String(decoding: metrics.body, as: UTF8.self)
                #expect(text.contains(#"aasa_domain_verdict{domain="shop.origin.test",verdict="ready"} 1"#))
                #expect(text.contains("aasa_last_check_timestamp_seconds"))
                #expect(try await get("/healthz").status == 200)
                let status = try await get("/status")
                #expect(status.status == 200)
                #expect(String(decoding: status.body, as: UTF8.self).contains(#""domain":"shop.origin.test""#))
                #expect(try await get("/nothing").status == 404)
            }
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit() == 0)
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// Issue 11 item 6 with the real binary: `status` names its database, refuses domains the configuration does not
/// have, says which configured domains are not checked yet, and prints valid JSON even without state.
@Suite("status says what it read", .timeLimit(.minutes(10)), .endToEndSlot)
struct StatusSaysWhatItReadTests {
    @Test("the first line names the database; unconfigured domains exit 2; unchecked ones are named")
    func namesDatabaseAndDomains() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-status-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        let store = try await MonitorStore.open(directory: directory + "/state")
        try store.close()
        let config = directory + "/config.yml"
        try "state_dir: \(directory)/state\ndomains: [a.test, b.test]\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let status = try await MonitorBinary.run(["status", "--config", config])
        #expect(status.status == 1)
        #expect(status.output.hasPrefix("database: \(directory)/state/aasa-monitor.sqlite\n"), "\(status.output)")
        #expect(status.output.contains("configured, not checked yet: a.test, b.test"), "\(status.output)")
        let unknown = try await MonitorBinary.run(["status", "--config", config, "not-configured.example"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("not-configured.example is not configured in \(config)"), "\(unknown.error)")
        let configured = try await MonitorBinary.run(["status", "--config", config, "a.test"])
        #expect(configured.status == 1)
        #expect(configured.output.contains("configured, not checked yet: a.test"))
    }

    @Test("status and history refuse an unconfigured domain, or one another shard watches, naming where to look")
    func otherShardAndHistory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-status-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        let names = (0..<8).map { "d\($0).test" }
        let mine = try #require(names.first { Shard.shardIndex(of: $0, count: 2) == 1 })
        let other = try #require(names.first { Shard.shardIndex(of: $0, count: 2) == 2 })
        let config = directory + "/config.yml"
        try "state_dir: \(directory)/state\nshard: 1/2\ndomains: [\(names.joined(separator: ", "))]\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        for command in ["status", "history"] {
            let elsewhere = try await MonitorBinary.run([command, "--config", config, other])
            #expect(elsewhere.status == 2, "\(command)")
            #expect(
                elsewhere.error.contains(
                    "\(other) is watched by shard 2/2, not by this configuration's 1/2 (\(config)): read it with that "
                        + "daemon's configuration or its --state-dir"), "\(command): \(elsewhere.error)")
            let unknown = try await MonitorBinary.run([command, "--config", config, "not-configured.example"])
            #expect(unknown.status == 2, "\(command)")
            #expect(unknown.error.contains("not-configured.example is not configured in \(config)"), "\(unknown.error)")
            // This shard's own domain gets past the check: no state yet is exit 1.
            #expect(try await MonitorBinary.run([command, "--config", config, mine]).status == 1, "\(command)")
        }
    }

    @Test("status --json without a database is valid JSON with no domains")
    func jsonWithoutState() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-status-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await MonitorBinary.run(["status", "--state-dir", directory + "/none", "--json"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect((object["domains"] as? [Any])?.isEmpty == true)
        #expect((object["daemon"] as? [String: Any])?["running"] as? Bool == false)
        let text = try await MonitorBinary.run(["status", "--state-dir", directory + "/none"])
        #expect(text.output.hasPrefix("database: \(directory)/none/aasa-monitor.sqlite"), "\(text.output)")
    }
}

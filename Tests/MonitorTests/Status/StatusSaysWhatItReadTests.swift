import Foundation
import Monitor
import TestSupport
import Testing

/// Issue 11 item 6 with the real binary: `status` names its database, refuses domains the configuration does not
/// have, says which configured domains are not checked yet, and prints valid JSON even without state.
@Suite("status says what it read", .timeLimit(.minutes(2)))
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

import EndToEndSlot
import Foundation
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

/// `status` and `history` exit codes with the real binary (0 state read, 1 no state, 2 usage).
@Suite("status and history exit codes", .endToEndSlot)
struct StatusCommandTests {
    @Test("no database, or no state for the domain, is exit 1; a bad domain is exit 2")
    func exitCodes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-status-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try await MonitorBinary.run(["status", "--state-dir", directory + "/none"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("none"))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try await MonitorStore.open(directory: directory)
        try store.close()
        #expect(try await MonitorBinary.run(["status", "--state-dir", directory]).status == 1)
        #expect(try await MonitorBinary.run(["history", "never.test", "--state-dir", directory]).status == 1)
        #expect(try await MonitorBinary.run(["history", "--state-dir", directory]).status == 2)
        #expect(try await MonitorBinary.run(["history", "bad domain", "--state-dir", directory]).status == 2)
        #expect(try await MonitorBinary.run(["status", "--config", directory + "/no-such.yml"]).status == 2)
    }

    @Test("a configuration that lists no domains, as a fresh package install has, is exit 1 and says so")
    func noDomainsConfigured() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-status-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try await MonitorStore.open(directory: directory)
        try store.close()
        let configuration = directory + "/config.yml"
        try "state_dir: \(directory)\n".write(
            toFile: configuration, atomically: true, encoding: .utf8)
        let run = try await MonitorBinary.run(["status", "--config", configuration])
        #expect(run.status == 1)
        #expect(
            run.error.contains("no state yet for any domain: the configuration lists none under domains:"),
            "\(run.error)")
    }
}

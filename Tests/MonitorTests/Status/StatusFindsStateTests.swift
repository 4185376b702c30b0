import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// Issue 23 item 9 with the real binary: `status` and `history` without `--config` find the state as `run` does
/// (here: the per-user directory a from-source daemon fell back to) and say which database they read.
@Suite("status finds the state without --config", .timeLimit(.minutes(10)), .endToEndSlot)
struct StatusFindsStateTests {
    @Test(
        "without --config and without /etc/aasa-monitor/config.yml, status and history read the per-user state",
        .enabled(
            if: !FileManager.default.fileExists(atPath: ConfigurationLocation.defaultPath),
            "this machine has a /etc/aasa-monitor/config.yml, which status would read"))
    func perUserStateWithoutConfiguration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-finds-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/xdg/aasa-monitor"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // The daemon records one failed check of a.test (its origin and the CDN are a closed port).
        let config = directory + "/config.yml"
        try """
        state_dir: \(state)
        interval: 1s
        http:
          timeout: 30s
          connect_to: ["::127.0.0.1:9"]
        domains: [a.test]

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningMonitor(arguments: ["run", "--config", config])
        // A hang guard for the first recorded check (a closed port refuses at once; no timeout has to fire).
        let deadline = ContinuousClock.now + .seconds(90)
        while try await !Self.checked(state), ContinuousClock.now < deadline, daemon.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        daemon.send(SIGTERM)
        #expect(try await daemon.waitForExit() == 0, "\(daemon.standardError)")
        #expect(try await Self.checked(state), "\(daemon.standardError)")

        // As another user than root when root (root would read /var/lib/aasa-monitor), with the state directory
        // as run's per-user fallback finds it.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory + "/xdg"
        environment["HOME"] = directory
        environment[ConfigurationLocation.environmentVariable] = nil
        for command in [["status"], ["history", "a.test"]] {
            let run = try await Self.runAsUser(command, environment: environment)
            #expect(run.status == 0, "\(command): \(run.output) \(run.error)")
            let first = run.output.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("database: \(state)/aasa-monitor.sqlite ("), "\(command): \(first)")
            #expect(first.contains("every domain in the database"), "\(command): \(first)")
        }
        let status = try await Self.runAsUser(["status"], environment: environment)
        #expect(status.output.contains("a.test"), "\(status.output)")
    }

    /// Whether the daemon has recorded a check of `a.test` in `state`.
    static func checked(_ state: String) async throws -> Bool {
        guard let reader = try? StoreReader.openReadOnly(directory: state) else { return false }
        return try await !reader.runs(domain: "a.test", limit: 1).isEmpty
    }

    /// Runs the binary as `nobody` when this is root (through setpriv), else as this user.
    static func runAsUser(
        _ arguments: [String], environment: [String: String]
    ) async throws -> MonitorBinary.Completion {
        guard geteuid() == 0 else { return try await MonitorBinary.run(arguments, environment: environment) }
        return try await MonitorBinary.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", MonitorBinary.url.path] + arguments,
            environment: environment, binary: "/usr/bin/setpriv")
    }
}

import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// Issue 35 item 5 with the real binary: the operator commands refuse a state directory without a database, as
/// `status` does, and create nothing; `silence add` creates the database only where the configuration keeps the
/// state, and not as root in a directory another user owns.
@Suite("operator commands refuse a missing state", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct MissingStateTests {
    static let commands: [[String]] = [
        ["silence", "add", "--all", "--for", "1h", "--reason", "typo"], ["silence", "list"],
        ["silence", "list", "--json"], ["silence", "expire", "1"], ["outbox", "list"], ["outbox", "list", "--json"],
        ["outbox", "list", "--dead"], ["outbox", "retry", "1"], ["outbox", "retry", "--dead"], ["outbox", "drop", "1"],
        ["history", "a.test"], ["status"],
    ]

    /// Every file and directory under `root`, relative to it.
    static func contents(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("a mistyped --state-dir (missing, or an existing directory without a database): exit 1, nothing created")
    func mistypedStateDirectory() async throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        for directory in [root + "/typo/state", root + "/empty"] {
            let database = directory + "/aasa-monitor.sqlite"
            for command in Self.commands {
                let run = try await MonitorBinary.run(command + ["--state-dir", directory])
                #expect(run.status == 1, "\(command): \(run.output) \(run.error)")
                #expect(
                    run.error.contains(
                        "error: no state database at \(database): the daemon has not run with this state directory"),
                    "\(command): \(run.error)")
                if !command.contains("--json") {
                    #expect(run.output.hasPrefix("database: \(database)\n"), "\(command): \(run.output)")
                }
                #expect(!run.output.contains("silenced until") && !run.output.contains("no deliveries waiting"))
                #expect(Self.contents(root) == ["empty"], "\(command) created \(Self.contents(root))")
            }
        }
        let added = try await MonitorBinary.run(
            ["silence", "add", "--all", "--for", "1h", "--reason", "typo", "--state-dir", root + "/typo"])
        #expect(added.error.contains("silence add creates one only in the configuration's state_dir"), "\(added.error)")
    }

    @Test("silence add before the daemon's first start creates the state where the configuration keeps it")
    func configuredStateBeforeFirstStart() async throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = root + "/config.yml"
        try "state_dir: \(root)/state\ndomains: [a.test]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let added = try await MonitorBinary.run(
            ["silence", "add", "a.test", "--for", "1h", "--reason", "before the start", "--config", config])
        #expect(added.status == 0, "\(added.output) \(added.error)")
        #expect(added.output.contains("silence 1: a.test silenced until"), "\(added.output)")
        let list = try await MonitorBinary.run(["silence", "list", "--config", config])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("before the start"), "\(list.output)")
    }

    @Test(
        "as root in another user's state directory silence add refuses, naming the command; as that user it is theirs",
        .enabled(if: geteuid() == 0, "needs root to own files as another user"))
    func rootBeforeTheFirstStart() async throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // The package's tmpfiles.d makes the state directory the service user's (here nobody) before its first start.
        #expect(chown(state, 65534, 65534) == 0 && chmod(state, 0o750) == 0 && chmod(root, 0o755) == 0)
        let config = root + "/config.yml"
        try """
        state_dir: \(state)
        interval: 1s
        http:
          timeout: 30s
          connect_to: ["::127.0.0.1:9"]
        domains: [a.test]

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let add = ["silence", "add", "a.test", "--for", "1h", "--reason", "CDN move", "--config", config]

        let refused = try await MonitorBinary.run(add)
        #expect(refused.status == 1, "\(refused.output) \(refused.error)")
        #expect(refused.error.contains("\(state) belongs to nobody and holds no database yet"), "\(refused.error)")
        #expect(
            refused.error.contains(
                "run `sudo -u nobody \(MonitorBinary.url.path) silence add a.test --for 1h "
                    + "--reason 'CDN move' --config \(config)`"), "\(refused.error)")
        #expect(Self.contents(state).isEmpty, "\(Self.contents(state))")

        // What the refusal says to run, as that user.
        let asOwner = try await Self.runAsNobody(add)
        #expect(asOwner.status == 0, "\(asOwner.output) \(asOwner.error)")
        // Root may then write to it: SQLite as root gives a -wal and -shm it creates the database's owner.
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: "\(state)/aasa-monitor.sqlite\(suffix)")
        }
        let second = try await MonitorBinary.run(add)
        #expect(second.status == 0, "\(second.output) \(second.error)")
        #expect(Self.contents(state).contains("aasa-monitor.sqlite-wal"), "\(Self.contents(state))")
        for file in Self.contents(state) {
            let owner = try FileManager.default.attributesOfItem(atPath: "\(state)/\(file)")[.ownerAccountID]
            #expect((owner as? NSNumber)?.intValue == 65534, "\(file) is owned by \(String(describing: owner))")
        }

        // A daemon running as the directory's owner opens it and records a check.
        var environment = ProcessInfo.processInfo.environment
        environment[ConfigurationLocation.environmentVariable] = nil
        let daemon = try RunningMonitor(
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", MonitorBinary.url.path, "run",
                "--config", config,
            ],
            environment: environment, binary: "/usr/bin/setpriv")
        try await eventually("the daemon running as nobody records a check", log: daemon) {
            guard daemon.isRunning else { return true }
            return try await StatusFindsStateTests.checked(state)
        }
        daemon.send(SIGTERM)
        #expect(try await daemon.waitForExit() == 0, "\(daemon.standardError)")
        #expect(try await StatusFindsStateTests.checked(state), "\(daemon.standardError)")
    }

    static func runAsNobody(_ arguments: [String]) async throws -> MonitorBinary.Completion {
        try await MonitorBinary.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", MonitorBinary.url.path] + arguments,
            binary: "/usr/bin/setpriv")
    }
}

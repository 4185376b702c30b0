import EndToEndSlot
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 11 items 1 and 8, issue 12 item 7, with the real binary: what a configuration refers to is validated once,
/// by `config check`, `run` and SIGHUP alike, and hostile files never hang or slip through.
@Suite("configuration references", .timeLimit(.minutes(10)), .endToEndSlot)
struct ConfigurationReferencesTests {
    /// A temporary directory with a valid PEM CA file in it.
    final class Directory: Sendable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-refs-\(UUID())").path
        var caFile: String { path + "/ca.pem" }
        var config: String { path + "/config.yml" }

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try TestCertificateAuthority().pem.write(toFile: caFile, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ text: String, to name: String = "config.yml") throws {
            try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
        }

        func makeFIFO(_ name: String) -> String {
            let fifo = path + "/" + name
            mkfifo(fifo, 0o600)
            return fifo
        }

        func configCheck(environment: [String: String]? = nil) async throws -> MonitorBinary.Completion {
            try await MonitorBinary.run(["config", "check", "--config", config], environment: environment)
        }
    }

    @Test("a missing or non-PEM http.ca_file and a missing webhook ca_file: config check exits 1, by key")
    func caFiles() async throws {
        let directory = try Directory()
        try directory.write("not a certificate\n", to: "notpem.pem")
        let cases: [(yaml: String, key: String, reason: String)] = [
            ("http:\n  ca_file: missing.pem\n", "config.yml:2: http.ca_file:", "No such file or directory"),
            ("http:\n  ca_file: notpem.pem\n", "config.yml:2: http.ca_file:", "holds no PEM certificate"),
            (
                "webhooks:\n  - name: ops\n    url: https://hooks.example.com/x\n    ca_file: missing.pem\n",
                "config.yml:4: webhooks[0].ca_file:", "No such file or directory"
            ),
        ]
        for (yaml, key, reason) in cases {
            try directory.write(yaml)
            let run = try await directory.configCheck()
            #expect(run.status == 1, "\(yaml)")
            #expect(run.error.contains(key) && run.error.contains(reason), "\(run.error)")
        }
        try directory.write("http:\n  ca_file: ca.pem\n")
        let valid = try await directory.configCheck()
        #expect(valid.status == 0, "\(valid.error)")
    }

    @Test("run on a configuration with a missing CA file exits 2 before READY=1 and before any check")
    func runRefusesBeforeReady() async throws {
        let directory = try Directory()
        try directory.write(
            "state_dir: \(directory.path)/state\ninterval: 1s\nhttp:\n  ca_file: missing.pem\ndomains: [a.test]\n")
        let socket = try NotifySocket.bound()
        let run = try await MonitorBinary.run(
            ["run", "--config", directory.config],
            environment: ["NOTIFY_SOCKET": socket.environmentValue, "HOME": directory.path])
        #expect(run.status == 2)
        #expect(run.error.contains("http.ca_file"), "\(run.error)")
        #expect(!run.error.contains("checked"))
        #expect(socket.receive(within: 200) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/state"))
    }

    @Test("an unset url_env is a warning for config check and a refusal for run")
    func unsetVariables() async throws {
        let directory = try Directory()
        try directory.write(
            "state_dir: \(directory.path)/state\nwebhooks:\n  - name: ops\n    url_env: AASA_TEST_UNSET_URL\n")
        let check = try await directory.configCheck(environment: ["HOME": directory.path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.error.contains("warning: \(directory.config):4: webhooks[0].url_env:"), "\(check.error)")
        let run = try await MonitorBinary.run(
            ["run", "--config", directory.config], environment: ["HOME": directory.path])
        #expect(run.status == 2)
        #expect(run.error.contains("AASA_TEST_UNSET_URL is not set"), "\(run.error)")
    }

    @Test("hostile values are refused with the key that holds them")
    func hostileValues() async throws {
        let directory = try Directory()
        let fifo = directory.makeFIFO("url.fifo")
        symlink(directory.path + "/loop-a", directory.path + "/loop-b")
        symlink(directory.path + "/loop-b", directory.path + "/loop-a")
        let latin1 = Data([0x68, 0x74, 0xE9, 0xFF])
        _ = FileManager.default.createFile(atPath: directory.path + "/latin1", contents: latin1)
        func hook(_ line: String, extra: String = "") -> String {
            "webhooks:\n  - name: ops\n    \(line)\n\(extra)"
        }
        let cases: [(yaml: String, expected: String)] = [
            (hook("url_file: url.fifo"), "webhooks[0].url_file: cannot read \(fifo): not a regular file (a FIFO)"),
            (hook("url_file: /dev/zero"), "not a regular file (a character device)"),
            (hook("url_file: loop-a"), "Too many levels of symbolic links"),
            (hook("url_file: latin1"), "the file is not UTF-8 text"),
            ("http:\n  concurrency: 1e309\n", "http.concurrency: expected a whole number"),
            ("interval: -5s\n", "interval: a duration cannot be negative"),
            ("http:\n  timeout: -1m\n", "http.timeout: a duration cannot be negative"),
            (hook("url: file:///etc/passwd"), "the scheme file:// is refused"),
            (hook("url: gopher://example.com/"), "the scheme gopher:// is refused"),
            (hook("url: https://user:s3cr3t-token@hooks.example.com/x"), "the URL carries credentials"),
            (hook("url: http://169.254.169.254/latest"), "link-local 169.254.0.0/16"),
            (hook("url: http://2852039166/"), "link-local 169.254.0.0/16"),
            (hook("url: \"http://[fd00:ec2::254]/\""), "unique-local fd00::/8"),
            (hook("url: \"http://[::ffff:169.254.169.254]/\""), "link-local 169.254.0.0/16"),
        ]
        for (yaml, expected) in cases {
            try directory.write(yaml)
            let run = try await directory.configCheck()
            #expect(run.status == 1, "\(yaml)")
            #expect(run.error.contains(expected), "\(yaml): \(run.error)")
            #expect(!run.error.contains("s3cr3t-token"))
        }
        try directory.write(hook("url: http://169.254.169.254/latest", extra: "    allow_private: true\n"))
        let allowed = try await directory.configCheck()
        #expect(allowed.status == 0, "\(allowed.error)")
    }

    @Test("a FIFO or a device as the configuration or a document file is refused at once (exit 2)")
    func fifoArguments() async throws {
        let directory = try Directory()
        let fifo = directory.makeFIFO("config.fifo")
        // 60 s hang guards: opening a FIFO without a writer blocks for ever, so the binary is killed (and the run
        // throws) only if it opens the FIFO instead of refusing it.
        let config = try await MonitorBinary.run(["config", "check", "--config", fifo], timeout: .seconds(60))
        #expect(config.status == 2)
        #expect(config.error.contains("not a regular file (a FIFO)"), "\(config.error)")
        for arguments in [["lint", fifo], ["diff", fifo, fifo], ["lint", "/dev/zero"]] {
            let run = try await MonitorBinary.run(arguments, timeout: .seconds(60))
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains("not a regular file"), "\(arguments): \(run.error)")
        }
        let status = try await MonitorBinary.run(["status", "--config", fifo], timeout: .seconds(60))
        #expect(status.status == 2)
    }

    @Test("a SIGHUP onto a FIFO url_file keeps the old configuration, and SIGTERM still ends the daemon")
    func reloadOntoFIFO() async throws {
        let directory = try Directory()
        _ = directory.makeFIFO("url.fifo")
        try directory.write("state_dir: \(directory.path)/state\n")
        let daemon = try RunningMonitor(
            arguments: ["run", "--config", directory.config], environment: ["HOME": directory.path])
        try await daemon.waitForLog("ready")
        try directory.write("state_dir: \(directory.path)/state\nwebhooks:\n  - name: ops\n    url_file: url.fifo\n")
        daemon.send(SIGHUP)
        try await daemon.waitForLog("configuration not reloaded")
        #expect(daemon.standardError.contains("not a regular file (a FIFO)"))
        daemon.send(SIGTERM)
        #expect(try await daemon.waitForExit(timeout: .seconds(30)) == 0)
    }

    @Test("a listen address already in use: exit 2 naming the address, no READY=1, no check")
    func bindFailure() async throws {
        let directory = try Directory()
        try await withFixtureServer(certificate: .valid(for: "localhost"), routes: []) { taken in
            try directory.write(
                "state_dir: \(directory.path)/state\ninterval: 1s\nlisten: 127.0.0.1:\(taken.port)\n"
                    + "domains: [never.test]\n")
            let socket = try NotifySocket.bound()
            let run = try await MonitorBinary.run(
                ["run", "--config", directory.config],
                environment: ["NOTIFY_SOCKET": socket.environmentValue, "HOME": directory.path])
            #expect(run.status == 2, "\(run.error)")
            #expect(run.error.contains("127.0.0.1:\(taken.port) is in use by another program"), "\(run.error)")
            #expect(!run.error.contains(" ready"))
            #expect(!run.error.contains("checked"))
            var messages: [String] = []
            while let message = socket.receive(within: 200) { messages.append(message) }
            #expect(!messages.contains { $0.contains("READY=1") }, "\(messages)")
        }
    }
}

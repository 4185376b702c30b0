import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Runs the built `aasa-monitor config check`, as operators and CI do, for its exit codes and messages.
@Suite("config check command", .endToEndSlot)
struct ConfigCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/aasa-monitor.yml").path

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandTests.Run {
        try await MonitorBinary.run(arguments, environment: environment)
    }

    @Test("the documented example is valid: exit 0 and a one-line summary")
    func exampleIsValid() async throws {
        let run = try await Self.run(["config", "check", "--config", Self.example])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "\(Self.example): valid: 2 domains, 0 webhooks, metrics on 127.0.0.1:9464\n")
    }

    @Test("AASA_MONITOR_CONFIG names the file when --config does not")
    func environmentVariable() async throws {
        let run = try await Self.run(["config", "check"], environment: ["AASA_MONITOR_CONFIG": Self.example])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix(Self.example))
    }

    @Test("an invalid file exits 1 and prints every problem as file:line: key: message on standard error")
    func invalidFile() async throws {
        let run = try await CommandTests.withTemporaryFile(
            "intervall: 5m\ndomains:\n  - name: example.com\n    expect: []\n"
        ) {
            path in (path, try await Self.run(["config", "check", "--config", path]))
        }
        #expect(run.1.status == 1)
        #expect(run.1.output.isEmpty)
        #expect(
            run.1.error == """
                \(run.0):1: intervall: unknown key 'intervall'; did you mean 'interval'?
                \(run.0):4: domains[0].expect: expected a mapping, found a list

                """)
    }

    @Test("with shard: K/N it lists the domains this shard watches, in file order, after the summary")
    func shardListing() async throws {
        let yaml = """
            shard: 1/4
            domains:
              - example.com
              - example.org
              - d0.bench.test
              - d1.bench.test
              - d2.bench.test
              - bücher.example
            """
        let run = try await CommandTests.withTemporaryFile(yaml) { path in
            (path, try await Self.run(["config", "check", "--config", path]))
        }
        #expect(run.1.status == 0, "\(run.1.error)")
        #expect(
            run.1.output == """
                \(run.0): valid: 6 domains, 0 webhooks, metrics endpoint off
                shard 1/4 watches 3 of 6 domains:
                  d0.bench.test
                  d1.bench.test
                  xn--bcher-kva.example

                """)
        let bad = try await CommandTests.withTemporaryFile("domains: [example.com]\nshard: 5/4\n") { path in
            (path, try await Self.run(["config", "check", "--config", path]))
        }
        #expect(bad.1.status == 1)
        #expect(bad.1.error.hasPrefix("\(bad.0):2: shard: K must be from 1 to N (4), found '5/4'"), "\(bad.1.error)")
    }

    @Test("a missing file or a directory exits 2 with the path and the reason")
    func unreadable() async throws {
        let missing = try await Self.run(["config", "check", "--config", "/nonexistent/config.yml"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("/nonexistent/config.yml: No such file or directory"))
        let directory = try await Self.run(["config", "check", "--config", FileManager.default.temporaryDirectory.path])
        #expect(directory.status == 2)
        #expect(directory.error.contains("not a regular file (a directory)"))
        #expect(try await Self.run(["config", "check", "--bogus"]).status == 2)
    }
}

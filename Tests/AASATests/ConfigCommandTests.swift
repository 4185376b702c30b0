import Foundation
import Testing

/// Runs the built `aasa-monitor config check`, as operators and CI do, for its exit codes and messages.
@Suite("config check command")
struct ConfigCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/aasa-monitor.yml").path

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandTests.Run {
        let process = Process()
        process.executableURL = CommandTests.binary
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandTests.Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    @Test("the documented example is valid: exit 0 and a one-line summary")
    func exampleIsValid() throws {
        let run = try Self.run(["config", "check", "--config", Self.example])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "\(Self.example): valid: 2 domains, 0 webhooks, metrics on 127.0.0.1:9464\n")
    }

    @Test("AASA_MONITOR_CONFIG names the file when --config does not")
    func environmentVariable() throws {
        let run = try Self.run(["config", "check"], environment: ["AASA_MONITOR_CONFIG": Self.example])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix(Self.example))
    }

    @Test("an invalid file exits 1 and prints every problem as file:line: key: message on standard error")
    func invalidFile() throws {
        let run = try CommandTests.withTemporaryFile("intervall: 5m\ndomains:\n  - name: example.com\n    expect: []\n")
        {
            path in try (path, Self.run(["config", "check", "--config", path]))
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
    func shardListing() throws {
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
        let run = try CommandTests.withTemporaryFile(yaml) { path in
            try (path, Self.run(["config", "check", "--config", path]))
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
        let bad = try CommandTests.withTemporaryFile("domains: [example.com]\nshard: 5/4\n") { path in
            try (path, Self.run(["config", "check", "--config", path]))
        }
        #expect(bad.1.status == 1)
        #expect(bad.1.error.hasPrefix("\(bad.0):2: shard: K must be from 1 to N (4), found '5/4'"), "\(bad.1.error)")
    }

    @Test("a missing file or a directory exits 2 with the path and the reason")
    func unreadable() throws {
        let missing = try Self.run(["config", "check", "--config", "/nonexistent/config.yml"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("/nonexistent/config.yml: No such file or directory"))
        let directory = try Self.run(["config", "check", "--config", FileManager.default.temporaryDirectory.path])
        #expect(directory.status == 2)
        #expect(directory.error.contains("not a regular file (a directory)"))
        #expect(try Self.run(["config", "check", "--bogus"]).status == 2)
    }
}

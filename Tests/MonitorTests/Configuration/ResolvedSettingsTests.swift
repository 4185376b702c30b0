import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// Issue 24 item 3: the configuration file and `check`'s flags make settings in one place (`ResolvedSettings`),
/// judged by one table of limits (`SettingLimits`), with `connect_to` parsed once (`ConnectToMapping`).
@Suite("one settings resolver", .timeLimit(.minutes(10)), .endToEndSlot)
struct ResolvedSettingsTests {
    /// A setting given as a file key (YAML under its section) and as `check`'s flag, with the same text.
    struct Route: Sendable, CustomTestStringConvertible {
        var yaml: String
        var overrides: SettingOverrides
        var testDescription: String { yaml.replacingOccurrences(of: "\n", with: " ") }
    }

    static func load(_ yaml: String) throws(ConfigurationErrors) -> MonitorConfiguration {
        try ConfigurationLoader.load(text: yaml, fileName: "config.yml", environment: [:], readFile: { _ in "" })
    }

    /// The problem the file's route reports for `yaml`.
    static func problem(_ yaml: String) throws -> ConfigurationProblem {
        do throws(ConfigurationErrors) {
            _ = try load(yaml)
        } catch {
            return try #require(error.problems.first)
        }
        Issue.record("the file accepted \(yaml)")
        throw CancellationError()
    }

    static let same: [Route] = [
        Route(yaml: "http:\n  timeout: 11m\n", overrides: SettingOverrides(timeout: "11m")),
        Route(yaml: "http:\n  timeout: 1h30m\n", overrides: SettingOverrides(timeout: "1h30m")),
        Route(yaml: "http:\n  concurrency: 7\n", overrides: SettingOverrides(concurrency: 7)),
        Route(
            yaml: "http:\n  connect_to: [\"::127.0.0.1:8443\", \"origin.test:443:[::1]:9\"]\n",
            overrides: SettingOverrides(connectTo: ["::127.0.0.1:8443", "origin.test:443:[::1]:9"])),
        Route(
            yaml: "cdn:\n  base_url: https://cdn.test/a/v1\n",
            overrides: SettingOverrides(cdnBase: "https://cdn.test/a/v1")),
        Route(yaml: "cdn:\n  stale_after: 12h\n", overrides: SettingOverrides(staleAfter: "12h")),
        Route(yaml: "tls:\n  expiry_warning: 0s\n", overrides: SettingOverrides(expiryWarning: "0s")),
    ]

    @Test("a setting written in the file or given as check's flag makes the same settings", arguments: same)
    func sameSettings(route: Route) throws {
        let file = ResolvedSettings(try Self.load(route.yaml))
        let flags = try ResolvedSettings.resolve(nil, overrides: route.overrides)
        #expect(file == flags)
        #expect(file != ResolvedSettings(nil), "the setting changed nothing")
        // The daemon's names for them are the same values.
        #expect(try ResolvedSettings.resolve(try Self.load(route.yaml), overrides: SettingOverrides()) == file)
    }

    @Test("connect_to is parsed into typed rules: the engine gets the mapping's fields")
    func connectToTyped() throws {
        let configuration = try Self.load("http:\n  connect_to: [\"Origin.Test:443:[::1]:8443\"]\n")
        #expect(
            configuration.http.connectTo == [
                ConnectToMapping(host: "origin.test", port: 443, targetHost: "::1", targetPort: 8443)
            ])
        let rule = try #require(ResolvedSettings(configuration).probe.connectTo.first)
        #expect(rule.description == "origin.test:443:[::1]:8443")
        #expect(rule == (try ConnectToRule(parsing: "origin.test:443:[::1]:8443")))
    }

    @Test("a flag's connect-to rules come before the file's")
    func flagsFirst() throws {
        let configuration = try Self.load("http:\n  connect_to: [\"::127.0.0.1:1\"]\n")
        let settings = try ResolvedSettings.resolve(
            configuration, overrides: SettingOverrides(connectTo: ["::127.0.0.1:2"]))
        #expect(settings.probe.connectTo.map(\.description) == ["::127.0.0.1:2", "::127.0.0.1:1"])
    }

    /// A refused value as a file key and as a flag: the same reason, each named as the user typed it.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var yaml: String
        var key: String
        var overrides: SettingOverrides
        var flag: String
        var testDescription: String { "\(key) / \(flag)" }
    }

    static let refusals: [Refusal] = [
        Refusal(
            yaml: "http:\n  timeout: 0s\n", key: "http.timeout", overrides: SettingOverrides(timeout: "0s"),
            flag: "--timeout 0s"),
        Refusal(
            yaml: "http:\n  timeout: 15\n", key: "http.timeout", overrides: SettingOverrides(timeout: "15"),
            flag: "--timeout 15"),
        Refusal(
            yaml: "http:\n  concurrency: 2000\n", key: "http.concurrency",
            overrides: SettingOverrides(concurrency: 2000), flag: "--concurrency 2000"),
        Refusal(
            yaml: "http:\n  connect_to: [\"origin.test:443\"]\n", key: "http.connect_to[0]",
            overrides: SettingOverrides(connectTo: ["origin.test:443"]), flag: "--connect-to origin.test:443"),
        Refusal(
            yaml: "http:\n  connect_to: [\"origin.test:99999:127.0.0.1:1\"]\n", key: "http.connect_to[0]",
            overrides: SettingOverrides(connectTo: ["origin.test:99999:127.0.0.1:1"]),
            flag: "--connect-to origin.test:99999:127.0.0.1:1"),
        Refusal(
            yaml: "cdn:\n  stale_after: 0s\n", key: "cdn.stale_after", overrides: SettingOverrides(staleAfter: "0s"),
            flag: "--stale-after 0s"),
        Refusal(
            yaml: "cdn:\n  base_url: http://cdn.test/\n", key: "cdn.base_url",
            overrides: SettingOverrides(cdnBase: "http://cdn.test/"), flag: "--cdn-base http://cdn.test/"),
        Refusal(
            yaml: "tls:\n  expiry_warning: soon\n", key: "tls.expiry_warning",
            overrides: SettingOverrides(expiryWarning: "soon"), flag: "--expiry-warning soon"),
    ]

    @Test("a value refused in the file is refused as a flag with the same reason, named as typed", arguments: refusals)
    func sameRefusal(refusal: Refusal) throws {
        let problem = try Self.problem(refusal.yaml)
        #expect(problem.keyPath == refusal.key)
        let error = try #require(
            throws: SettingOverrideError.self,
            performing: { try ResolvedSettings.resolve(nil, overrides: refusal.overrides) })
        #expect(error.description == "\(refusal.flag): \(error.reason)")
        // The file adds what it found (`, found "0s"`); the reason before it is the flag's.
        #expect(problem.message.hasPrefix(error.reason), "file: \(problem.message); flag: \(error.reason)")
    }

    @Test("each limit names its key and flag once; the table's keys are the file's")
    func table() throws {
        for limit in SettingLimits.durations {
            let section = String(limit.key.prefix { $0 != "." })
            let key = String(limit.key.drop { $0 != "." }.dropFirst())
            let problem = try Self.problem("\(section):\n  \(key): -1s\n")
            #expect(problem.keyPath == limit.key)
        }
        #expect(Set(SettingLimits.durations.map(\.key)).count == SettingLimits.durations.count)
    }

    @Test("http.timeout: 11m is judged the same by config check, run's loader and check --config")
    func elevenMinutes() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.yml"
        try "http:\n  timeout: 11m\ndomains:\n  - example.com\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let configCheck = try await MonitorBinary.run(["config", "check", "--config", path])
        #expect(configCheck.status == 0, "\(configCheck.error)")
        // The daemon's settings come from the same loader and the same assembly.
        let loaded = try ConfigurationFile.load(path: path, environment: [:])
        #expect(loaded.http.timeout == .seconds(660))
        #expect(ResolvedSettings(loaded).probe.timeout == .seconds(660))
        // A closed local port: the check runs (exit 3, nothing reachable), it is not refused as usage (2).
        let check = try await MonitorBinary.run(["check", "--config", path, "--connect-to", "::127.0.0.1:9"])
        #expect(check.status == 3, "\(check.output)\(check.error)")
        #expect(!check.error.contains("--timeout"), "\(check.error)")
        let flag = try await MonitorBinary.run(
            ["check", "example.com", "--timeout", "11m", "--connect-to", "::127.0.0.1:9"])
        #expect(flag.status == 3, "\(flag.output)\(flag.error)")
    }
}

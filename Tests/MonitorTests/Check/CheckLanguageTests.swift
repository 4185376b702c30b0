import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 11 item 5 and issue 12 item 6 with the real binary: `check` flags speak the configuration's language, a
/// configuration's problems are named by its keys, and what origins and Apple say reaches the terminal inert.
@Suite("check speaks the configuration's language", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckLanguageTests {
    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("check-lang-\(UUID()).yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("--timeout 3 is refused with the message http.timeout: 3 gets; --cdn-base http://… exits 2")
    func durationsAndURLs() async throws {
        let file = try Self.temporaryFile("http:\n  timeout: 3\ncdn:\n  base_url: http://cdn.example.com/a/v1/\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let config = try await MonitorBinary.run(["config", "check", "--config", file])
        #expect(config.status == 1)
        let timeoutLine = try #require(config.error.split(separator: "\n").first { $0.contains("http.timeout: ") })
        let reason = try #require(
            timeoutLine.components(separatedBy: "http.timeout: ").last?.components(
                separatedBy: ", found"
            ).first)
        #expect(reason == "a number needs a unit: 3s, 3m, 3h or 3d")
        let flag = try await MonitorBinary.run(["check", "example.test", "--timeout", "3"])
        #expect(flag.status == 2)
        #expect(flag.error.contains("--timeout 3: \(reason)"), "\(flag.error)")
        let baseLine = try #require(config.error.split(separator: "\n").first { $0.contains("cdn.base_url: ") })
        let baseReason = try #require(
            baseLine.components(separatedBy: "cdn.base_url: ").last?.components(
                separatedBy: ", found"
            ).first)
        let base = try await MonitorBinary.run(["check", "example.test", "--cdn-base", "http://cdn.example.com/a/v1/"])
        #expect(base.status == 2)
        #expect(base.error.contains("--cdn-base http://cdn.example.com/a/v1/: \(baseReason)"), "\(base.error)")
        for (flagName, value) in [("--stale-after", "86400"), ("--expiry-warning", "14"), ("--timeout", "-3s")] {
            let refused = try await MonitorBinary.run(["check", "example.test", "\(flagName)=\(value)"])
            #expect(refused.status == 2, "\(flagName) \(value)")
            #expect(refused.error.contains("\(flagName) \(value): "), "\(refused.error)")
        }
    }

    @Test("durations with units work: --timeout 30s --stale-after 1d --expiry-warning 14d")
    func unitsWork() async throws {
        try await CheckScenarios.with(cdnDomains: ["ready.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(
                ["check", "ready.origin.test", "--stale-after", "1d", "--expiry-warning", "14d"]
                    + scenarios.commandOptions)
            #expect(run.status == 0, "\(run.error)")
        }
    }

    @Test("check --config with a missing http.ca_file names the key, not a --ca-file flag")
    func configurationKeysNotFlags() async throws {
        let file = try Self.temporaryFile("http:\n  ca_file: /nonexistent/ca.pem\ndomains: [example.test]\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await MonitorBinary.run(["check", "--config", file])
        #expect(run.status == 2)
        #expect(run.error.contains("\(file):2: http.ca_file: cannot read the CA file /nonexistent/ca.pem"))
        #expect(!run.error.contains("--ca-file"))
    }

    @Test("terminal escapes from an origin are shown escaped and long values cut; JSON is unchanged")
    func terminalEscapes() async throws {
        try await CheckScenarios.with(cdnDomains: ["escape.origin.test", "longreason.origin.test"]) { scenarios in
            let text = try await MonitorBinary.run(
                ["check", "escape.origin.test", "longreason.origin.test"] + scenarios.commandOptions)
            #expect(text.status == 1 || text.status == 3, "\(text.error)")
            #expect(!text.output.contains("\u{1b}") && !text.output.contains("\u{07}"))
            #expect(text.output.contains(#"\x1b[2J\x1b[31mFAKE\x1b]0;title\x07"#), "\(text.output)")
            #expect(!text.output.contains(String(repeating: "x", count: 1_500)))
            #expect(text.output.contains("… (cut: "), "\(text.output)")
            let json = try await MonitorBinary.run(
                ["check", "escape.origin.test", "--json"] + scenarios.commandOptions)
            #expect(json.output.contains(#"\u001b[2J"#), "\(json.output)")
        }
    }
}

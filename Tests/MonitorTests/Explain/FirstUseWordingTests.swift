import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 35 §19 with the real binary: completions said in `--help`, grammatical expectation messages, a "did you
/// mean" for a mistyped silence code.
@Suite("first-use wording", .timeLimit(.minutes(10)), .endToEndSlot)
struct FirstUseWordingTests {
    @Test("--help says how to install shell completions, and the command it shows prints a script for each shell")
    func completionsInHelp() async throws {
        let help = try await MonitorBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("aasa-monitor --generate-completion-script bash"), "\(help.output)")
        #expect(help.output.contains("~/.local/share/bash-completion/completions/aasa-monitor"), "\(help.output)")
        for shell in ["bash", "zsh", "fish"] {
            #expect(help.output.contains(shell))
            let script = try await MonitorBinary.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.output.contains("aasa-monitor"), "\(shell): \(script.output.prefix(200))")
        }
    }

    @Test("silence add --code with a typo names the code meant and exits 2, writing nothing")
    func silenceCodeSuggestion() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-code-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await MonitorBinary.run(
            [
                "silence", "add", "--all", "--code", "cdn.stal", "--for", "1h", "--reason", "x", "--state-dir",
                directory.path,
            ], environment: ["HOME": "/nonexistent"])
        #expect(run.status == 2, "\(run.output) \(run.error)")
        #expect(run.error.contains("no finding code 'cdn.stal'; did you mean cdn.stale?"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.path), "nothing is written for a refused order")
    }

    @Test("an expected URL that fails reads as English: is excluded by the rule at …, expected to match")
    func expectationWording() async throws {
        try await CheckScenarios.with(cdnDomains: ["expect.origin.test"]) { scenarios in
            let app = CheckScenarios.app
            // The origin excludes /buy/gift; Apple's older copy still opens the app there.
            let excluded = try await MonitorBinary.run(
                ["check", "expect.origin.test", "--expect-url", "https://expect.origin.test/buy/gift=\(app)"]
                    + scenarios.commandOptions)
            #expect(excluded.status == 4, "\(excluded.output) \(excluded.error)")
            #expect(
                excluded.output.contains(
                    "https://expect.origin.test/buy/gift for \(app) is excluded by the rule at "
                        + "$.applinks.details[0].components[0] on the origin copy, expected to match"),
                "\(excluded.output)")
            let none = try await MonitorBinary.run(
                ["check", "expect.origin.test", "--expect-url", "https://expect.origin.test/other=\(app)"]
                    + scenarios.commandOptions)
            #expect(none.status == 4)
            #expect(
                none.output.contains(
                    "https://expect.origin.test/other for \(app) matches no rule on the origin copy, "
                        + "expected to match"), "\(none.output)")
            // Apple's copy still opens the app where the origin already excludes it: lagging, said in words.
            let lagging = try await MonitorBinary.run(
                ["check", "expect.origin.test", "--expect-no-url", "https://expect.origin.test/buy/gift=\(app)"]
                    + scenarios.commandOptions)
            #expect(lagging.status == 3)
            #expect(
                lagging.output.contains("https://expect.origin.test/buy/gift is matched on Apple's copy"),
                "\(lagging.output)")
            for run in [excluded, none, lagging] {
                #expect(!run.output.contains("is exclude "))
                #expect(!run.output.contains("to be match"))
                #expect(!run.output.contains(" is match "))
            }
        }
    }
}

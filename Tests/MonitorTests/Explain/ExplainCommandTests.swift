import AASA
import AppClaims
import EndToEndSlot
import Foundation
import MonitorCore
import TestSupport
import Testing

/// The real `aasa-monitor explain` binary: what it prints, and that its list is the registry.
@Suite("explain command", .timeLimit(.minutes(10)), .endToEndSlot)
struct ExplainCommandTests {
    @Test("explain CODE prints the meaning, why Apple cares, how to fix and an example, and exits 0")
    func explainsCode() async throws {
        let run = try await MonitorBinary.run(["explain", "origin.bot_blocked"])
        #expect(run.status == 0)
        let code = FindingCode.originBotBlocked
        #expect(run.output.hasPrefix("origin.bot_blocked (error)\n"))
        for text in [code.meaning, "Why Apple cares: " + code.whyAppleCares, "How to fix: " + code.fix] {
            #expect(run.output.contains(text))
        }
        #expect(run.output.contains("Example: " + code.example))
    }

    @Test("an unknown code exits 2 and names the nearest known code; no code and no --list is a usage error")
    func unknownCode() async throws {
        let typo = try await MonitorBinary.run(["explain", "origin.bot_block"])
        #expect(typo.status == 2)
        #expect(typo.error.contains("'origin.bot_block' is not a finding code; the nearest is origin.bot_blocked"))
        #expect(typo.output.isEmpty)
        #expect(try await MonitorBinary.run(["explain"]).status == 2)
        #expect(try await MonitorBinary.run(["explain", "cdn.stale", "--list"]).status == 2)
    }

    /// Every code `explain` knows, in `--list` order: the monitor's, then the app reader's `app.*`.
    static let allIDs = FindingCode.all.map(\.id) + ClaimCodeExplanation.all.map(\.code.rawValue)

    @Test("explain --list prints every registered code with its severity, and exits 0")
    func list() async throws {
        let run = try await MonitorBinary.run(["explain", "--list"])
        #expect(run.status == 0)
        let rows = run.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { String($0[0]) } == Self.allIDs)
        let severities = FindingCode.all.map(\.severity.rawValue) + ClaimCodeExplanation.all.map(\.severity.rawValue)
        for (row, severity) in zip(rows, severities) {
            #expect(String(row[1]) == severity)
        }
    }

    @Test("explain app.CODE explains the app reader's codes; a typo of one names the nearest app code")
    func appCodes() async throws {
        let run = try await MonitorBinary.run(["explain", "app.developer_mode_in_distribution"])
        #expect(run.status == 0)
        let code = try #require(ClaimCodeExplanation(id: "app.developer_mode_in_distribution"))
        #expect(run.output.hasPrefix("app.developer_mode_in_distribution (error)\n\(code.meaning)\n"))
        #expect(run.output.contains("How to fix: " + code.fix))
        let typo = try await MonitorBinary.run(["explain", "app.missing_appid"])
        #expect(typo.status == 2)
        #expect(typo.error.contains("the nearest is app.missing_app_id"), "\(typo.error)")
    }

    @Test("every app.* code the app reader declares is explained, so explain --list misses none")
    func everyAppCodeExplained() throws {
        // Static members cannot be enumerated at run time, so the declarations are read from the source.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/AppClaims/ClaimFinding.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let declared = text.matches(of: /Code\(rawValue: "(app\.[a-z_]+)"\)/).map { String($0.output.1) }
        #expect(declared.count >= 11)
        #expect(Set(declared) == Set(ClaimCodeExplanation.all.map(\.code.rawValue)))
        #expect(ClaimCodeExplanation.all.count == declared.count)
        for code in ClaimCodeExplanation.all {
            for text in [code.meaning, code.whyAppleCares, code.fix, code.example] {
                #expect(!text.isEmpty && !text.contains("\n"), "\(code.code)")
            }
        }
    }

    @Test("explain --help, the source of the man page, lists every code")
    func helpListsCodes() async throws {
        let run = try await MonitorBinary.run(["explain", "--help"])
        #expect(run.status == 0)
        for code in FindingCode.all {
            #expect(run.output.contains("\(code.id) (\(code.severityText))"), "\(code.id)")
        }
        for code in ClaimCodeExplanation.all {
            #expect(run.output.contains("\(code.code) (\(code.severity.rawValue))"), "\(code.code)")
        }
    }
}

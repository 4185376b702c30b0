import AASA
import EndToEndSlot
import Foundation
import MonitorCore
import MonitorEvaluation
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
    static let allIDs = FindingCode.all.map(\.id)

    @Test("explain --list prints every registered code with its severity, and exits 0")
    func list() async throws {
        let run = try await MonitorBinary.run(["explain", "--list"])
        #expect(run.status == 0)
        let rows = run.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { String($0[0]) } == Self.allIDs)
        #expect(Self.allIDs.suffix(FindingCode.app.count) == FindingCode.app.map(\.id)[...])
        let severities = FindingCode.all.map(\.severity.rawValue)
        for (row, severity) in zip(rows, severities) {
            #expect(String(row[1]) == severity)
        }
    }

    @Test("explain app.CODE explains the app reader's codes; a typo of one names the nearest app code")
    func appCodes() async throws {
        let run = try await MonitorBinary.run(["explain", "app.developer_mode_in_distribution"])
        #expect(run.status == 0)
        let code = FindingCode.appDeveloperModeInDistribution
        #expect(run.output.hasPrefix("app.developer_mode_in_distribution (error)\n\(code.meaning)\n"))
        #expect(run.output.contains("How to fix: " + code.fix))
        let typo = try await MonitorBinary.run(["explain", "app.missing_appid"])
        #expect(typo.status == 2)
        #expect(typo.error.contains("the nearest is app.missing_app_id"), "\(typo.error)")
    }

    @Test("explain --help, the source of the man page, lists every code")
    func helpListsCodes() async throws {
        let run = try await MonitorBinary.run(["explain", "--help"])
        #expect(run.status == 0)
        for code in FindingCode.all {
            #expect(run.output.contains("\(code.id) (\(code.severityText))"), "\(code.id)")
        }
    }
}

import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 23 item 11: every command states its exit codes in one `Exit codes:` sentence, the one `--help` prints and
/// build-deb turns into the command page's EXIT STATUS; the hand-written main page `aasa-monitor(1)` lists every
/// command of the binary with those same codes. (`.ci/deb-check` reads the pages build-deb generated.)
@Suite("man pages", .timeLimit(.minutes(10)), .endToEndSlot)
struct ManualPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let mainPage = root.appendingPathComponent("Sources/BuildDeb/man/aasa-monitor.1")

    /// Each command's exit codes, in the order its sentence gives them, as the design's exit-code tables have them.
    static let expected: [String: [Int]] = [
        "check": [0, 1, 3, 4, 2], "run": [0, 1, 2], "status": [0, 1, 2], "history": [0, 1, 2],
        "config check": [0, 1, 2], "webhook test": [0, 1, 2], "lint": [0, 1, 2], "diff": [0, 1, 2],
        "match": [0, 1, 2], "explain": [0, 2], "app": [0, 1, 2],
        "silence add": [0, 1, 2], "silence list": [0, 1, 2], "silence expire": [0, 1, 2],
        "outbox list": [0, 1, 2], "outbox retry": [0, 1, 2], "outbox drop": [0, 1, 2],
    ]

    /// Every command of the binary (`config check`), with its discussion and whether it groups subcommands.
    static func commands() async throws -> [String: (discussion: String, isGroup: Bool)] {
        let run = try await MonitorBinary.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        var commands: [String: (discussion: String, isGroup: Bool)] = [:]
        func walk(_ command: [String: Any], path: [String]) {
            let here = path + [command["commandName"] as? String ?? ""]
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if here.count > 1 {
                commands[here.dropFirst().joined(separator: " ")] =
                    (command["discussion"] as? String ?? "", !subcommands.isEmpty)
            }
            for child in subcommands { walk(child, path: here) }
        }
        walk(try #require(root["command"] as? [String: Any]), path: [])
        commands["help"] = nil
        return commands
    }

    /// The text of the `Exit codes: …` sentence, without its full stop: what a page must say.
    static func exitSentence(_ discussion: String) -> String? {
        guard let start = discussion.range(of: "Exit codes: ")?.upperBound else { return nil }
        let rest = discussion[start...]
        let end = rest.firstMatch(of: /\.(\s|$)/)?.range.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("every command states its codes in one Exit codes sentence, as the design's tables have them")
    func everyCommandStatesItsCodes() async throws {
        let commands = try await Self.commands()
        #expect(Set(commands.filter { !$0.value.isGroup }.keys) == Set(Self.expected.keys))
        for (name, codes) in Self.expected {
            let sentence = try #require(Self.exitSentence(commands[name]?.discussion ?? ""), "\(name)")
            let stated = sentence.components(separatedBy: "; ").map { Int($0.prefix { $0.isNumber }) }
            #expect(stated == codes, "\(name): \(sentence)")
        }
    }

    @Test("the main page has an overview, the commands, files, exit codes and see-also, for every command")
    func mainPage() async throws {
        let page = try String(contentsOf: Self.mainPage, encoding: .utf8)
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "SEE ALSO",
        ] {
            #expect(page.contains("\n.Sh \(section)\n"), "no \(section) section")
        }
        let flat = page.split(separator: "\n").filter { !$0.hasPrefix(".") }.joined(separator: " ")
        let commands = try await Self.commands()
        for (name, command) in commands {
            let words = name.split(separator: " ")
            #expect(page.contains("\n.It Cm \(name)"), "COMMANDS lacks \(name)")
            #expect(page.contains("\n.Xr aasa-monitor.\(words.joined(separator: ".")) 1"), "SEE ALSO lacks \(name)")
            if command.isGroup { continue }
            let sentence = try #require(Self.exitSentence(command.discussion), "\(name)")
            #expect(flat.contains(sentence), "EXIT STATUS does not give \(name)'s codes as it does: \(sentence)")
        }
    }

    @Test(
        "the main page renders without warnings", .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/man")))
    func rendersCleanly() async throws {
        let man = try await MonitorBinary.run(
            ["-l", "--warnings", Self.mainPage.path], environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin"],
            binary: "/usr/bin/man")
        #expect(man.status == 0)
        #expect(man.error.isEmpty, "\(man.error)")
        #expect(man.output.contains("aasa-monitor.webhook.test(1)"))
    }
}

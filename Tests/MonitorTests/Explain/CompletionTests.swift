import AASA
import EndToEndSlot
import Foundation
import MonitorCore
import TestSupport
import Testing

/// Issue 23 item 14 with the real binary: what the shells complete. Files and finding codes are written into the
/// completion scripts (read here from the binary's own description of its arguments); webhook names and domains
/// come from the binary when the shell asks (`aasa-monitor ---completion …`, what the scripts run).
@Suite("shell completions", .timeLimit(.minutes(10)), .endToEndSlot)
struct CompletionTests {
    /// `--experimental-dump-help`: every command's arguments with their completion kinds.
    static func commands() async throws -> [String: [[String: Any]]] {
        let run = try await MonitorBinary.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        var commands: [String: [[String: Any]]] = [:]
        func walk(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? ""
            let here = path + [name]
            commands[here.dropFirst().joined(separator: " ")] = command["arguments"] as? [[String: Any]] ?? []
            for child in command["subcommands"] as? [[String: Any]] ?? [] { walk(child, path: here) }
        }
        walk(try #require(root["command"] as? [String: Any]), path: [])
        return commands
    }

    /// The completion kind of `command`'s argument named `name` (the option's long name, or the positional's).
    static func kind(_ commands: [String: [[String: Any]]], _ command: String, _ name: String) -> [String: Any]? {
        let argument = commands[command]?.first { argument in
            (argument["preferredName"] as? [String: Any])?["name"] as? String == name
                || argument["valueName"] as? String == name
        }
        return argument?["completionKind"] as? [String: Any]
    }

    @Test("lint, diff, match and every --config complete files; explain completes the finding codes")
    func filesAndCodes() async throws {
        let commands = try await Self.commands()
        for (command, argument) in [
            ("lint", "file"), ("diff", "file-a"), ("diff", "file-b"), ("match", "file"), ("config check", "config"),
            ("run", "config"), ("status", "config"), ("history", "config"), ("webhook test", "config"),
            ("check", "config"),
        ] {
            #expect(Self.kind(commands, command, argument)?["file"] != nil, "\(command) \(argument)")
        }
        let codes = try #require(Self.kind(commands, "explain", "code")?["list"] as? [String: Any])
        // Every code `explain --list` knows, in its order.
        let listed = try await MonitorBinary.run(["explain", "--list"]).output.split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        #expect(!listed.isEmpty)
        #expect(codes["values"] as? [String] == listed)
        for (command, argument) in [("status", "domains"), ("history", "domain"), ("webhook test", "name")] {
            #expect(Self.kind(commands, command, argument)?["custom"] != nil, "\(command) \(argument)")
        }
    }

    @Test("status, history and webhook test complete the configured domains and webhook names")
    func configuredNames() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-complete-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/config.yml"
        try """
        domains: [shop.example.net, blog.example.net, other.test]
        webhooks:
          - { name: team-chat, url: "https://127.0.0.1:9/chat" }
          - { name: pager, url: "https://127.0.0.1:9/pager" }

        """.write(toFile: config, atomically: true, encoding: .utf8)
        // What bash runs for `aasa-monitor status --config FILE <TAB>`: the words, the index of the one being
        // completed and the cursor's offset in it.
        func complete(_ subcommands: [String], _ words: [String]) async throws -> [String] {
            let line = ["aasa-monitor"] + words
            let arguments =
                ["---completion"] + subcommands + ["--", "positional@0", "\(line.count - 1)", "\(line.last!.count)"]
                + line
            let run = try await MonitorBinary.run(arguments)
            #expect(run.status == 0, "\(run.error)")
            return run.output.split(separator: "\n").map(String.init)
        }
        #expect(
            try await complete(["status"], ["status", "--config", config, ""])
                == ["shop.example.net", "blog.example.net", "other.test"])
        #expect(try await complete(["history"], ["history", "--config=\(config)", "sh"]) == ["shop.example.net"])
        #expect(
            try await complete(["webhook", "test"], ["webhook", "test", "--config", config, ""]) == [
                "team-chat", "pager",
            ])
        // No configuration to read: nothing to offer, and no error on the terminal.
        #expect(try await complete(["status"], ["status", "--config", directory + "/none.yml", ""]).isEmpty)
    }
}

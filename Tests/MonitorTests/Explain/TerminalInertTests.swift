import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 32 §6: no command prints a raw control character or bidi override from any input, whether it came from its
/// own arguments, the database (written by the API or `silence add`) or an error message that quotes them.
@Suite("terminal-inert output", .timeLimit(.minutes(10)), .endToEndSlot)
struct TerminalInertTests {
    /// Clear screen, red, window title (OSC 0 … BEL), a clipboard write (OSC 52) and a right-to-left override.
    static let hostile = "\u{1B}[2J\u{1B}[31mX\u{1B}]0;pwned\u{07}\u{1B}]52;c;ZXZpbA==\u{07}\u{202E}gpj.exe"

    /// The first raw control character (but line feed and tab) or bidi control in `text`, if any.
    static func raw(_ text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            (scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t")
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
        }
    }

    static func expectInert(_ run: MonitorBinary.Completion, _ what: String) {
        #expect(raw(run.output) == nil, "\(what) printed a raw control on stdout: \(run.output.debugDescription)")
        #expect(raw(run.error) == nil, "\(what) printed a raw control on stderr: \(run.error.debugDescription)")
    }

    @Test("a silence's reason and author from the command line are escaped by silence add, silence list and status")
    func silenceText() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-inert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // silence add creates a database only in a configuration's state_dir (issue 35 item 5).
        let config = directory.appendingPathComponent("config.yml").path
        try "state_dir: \(directory.path)/state\n".write(toFile: config, atomically: true, encoding: .utf8)
        let state = ["--config", config]
        let add = try await MonitorBinary.run(
            ["silence", "add", "--all", "--for", "1h", "--reason", Self.hostile, "--author", Self.hostile] + state)
        #expect(add.status == 0, "\(add.error)")
        Self.expectInert(add, "silence add")
        let list = try await MonitorBinary.run(["silence", "list"] + state)
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("\\x1b]52;c;ZXZpbA==\\x07"), "shown escaped: \(list.output)")
        #expect(list.output.contains("\\u{202e}gpj.exe"), "\(list.output)")
        Self.expectInert(list, "silence list")
        Self.expectInert(try await MonitorBinary.run(["status"] + state), "status")
        // JSON is for programs: the same text, escaped as JSON escapes it, never raw.
        Self.expectInert(try await MonitorBinary.run(["silence", "list", "--json"] + state), "silence list --json")
    }

    @Test(
        "errors quoting a command's own arguments are escaped",
        arguments: [
            ["explain", "a\u{1B}[31mb"],
            ["status", "a\u{1B}[31m.test", "--state-dir", "/nonexistent-\u{1B}]0;t\u{07}"],
            ["status", "shop\u{202E}.test", "--state-dir", "/nonexistent"], ["lint", "/nonexistent/\u{1B}[2J.json"],
            ["check", "bad\u{1B}[2J domain"], ["silence", "add", "--all", "--for", "1\u{1B}[2Jh", "--reason", "x"],
            ["match", "https://\u{1B}[2J/", "/nonexistent"], ["config", "check", "--config", "/no/\u{202E}x.yml"],
        ])
    func argumentErrors(arguments: [String]) async throws {
        let run = try await MonitorBinary.run(arguments, environment: ["HOME": "/nonexistent"])
        #expect(run.status != 0, "\(arguments.first ?? "") accepted a hostile argument")
        Self.expectInert(run, arguments.joined(separator: " "))
    }
}

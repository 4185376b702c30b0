import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// README.md's examples, run as a reader pastes them: every `console` command with the real binary, offline.
@Suite("README examples", .timeLimit(.minutes(10)), .endToEndSlot)
struct ReadmeExampleTests {
    /// The package root: this file is `Tests/MonitorTests/Documentation/ReadmeExampleTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func readme() throws -> ReadmeExamples {
        ReadmeExamples(text: try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
    }

    @Test("every fenced block follows the convention: console runs, sh says why it does not")
    func convention() throws {
        let readme = try Self.readme()
        for problem in readme.conventionProblems { Issue.record(Comment(rawValue: problem)) }
        #expect(readme.examples.count >= 3, "the README shows commands a reader can run offline")
    }

    @Test("stays short and self-contained: at most 400 lines, no link outside the repository")
    func shape() throws {
        let readme = try Self.readme()
        let lines = readme.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 400, "README.md has \(lines.count) lines; the reference belongs in man pages")
        for (index, line) in lines.enumerated() {
            #expect(!line.contains("](http"), "README.md:\(index + 1): links outside the repository")
            #expect(!line.contains("../"), "README.md:\(index + 1): points outside the repository")
        }
    }

    @Test("every console command exits as the README says and prints the lines it shows")
    func consoleExamples() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // The built binary comes first on PATH; HOME and XDG_STATE_HOME are empty, so no user state is read.
        let environment = [
            "PATH": MonitorBinary.url.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8",
        ]
        for example in try Self.readme().examples {
            let run = try await MonitorBinary.run(
                ["-c", "cd '\(Self.root.path)' && \(example.command)"], environment: environment,
                timeout: .seconds(60), binary: "/bin/sh")
            #expect(
                run.status == example.exitStatus,
                "\(example) exited \(run.status), README says \(example.exitStatus)\n\(run.output)\(run.error)")
            let printed = Set(
                (run.output + "\n" + run.error).components(separatedBy: "\n").map(ReadmeExamples.withoutDigits))
            for line in example.shownOutput where !printed.contains(ReadmeExamples.withoutDigits(line)) {
                Issue.record(
                    "\(example) did not print this line the README shows:\n\(line)\nIt printed:\n\(run.output)\(run.error)"
                )
            }
        }
    }

    @Test("every configuration the README shows as a whole file is valid")
    func configurations() async throws {
        let readme = try Self.readme()
        #expect(!readme.configurations.isEmpty, "the README shows a minimal configuration")
        for block in readme.configurations {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).yml")
            try Data(block.lines.joined(separator: "\n").utf8).write(to: path)
            defer { try? FileManager.default.removeItem(at: path) }
            let run = try await MonitorBinary.run(["config", "check", "--config", path.path], environment: [:])
            #expect(run.status == 0, "README.md:\(block.line): config check refuses it:\n\(run.error)")
        }
    }

    @Test("the parser reads commands, continuations, output and exit annotations")
    func parser() {
        let readme = ReadmeExamples(
            text: """
                ```console
                $ aasa-monitor lint a.json \\
                    --json
                {"file": "a.json"}
                # exit 1
                $ aasa-monitor --version
                ```
                ```sh
                systemctl start aasa-monitor
                ```
                ```
                plain
                ```
                ```yaml config
                interval: 5m
                ```
                """)
        let examples = readme.examples
        #expect(examples.map(\.command) == ["aasa-monitor lint a.json \\\n    --json", "aasa-monitor --version"])
        #expect(examples.map(\.exitStatus) == [1, 0])
        #expect(examples.first?.shownOutput == [#"{"file": "a.json"}"#])
        #expect(readme.conventionProblems.count == 2)
        #expect(readme.configurations.map(\.lines) == [["interval: 5m"]])
        #expect(ReadmeExamples.withoutDigits("after 12 ms, 0.05 s") == "after 0 ms, 0.0 s")
    }
}

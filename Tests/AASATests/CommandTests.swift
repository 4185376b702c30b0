import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Runs the built `aasa-monitor` binary, as users and scripts do, to check exit codes and `--json` output.
@Suite("lint and diff commands", .endToEndSlot)
struct CommandTests {
    typealias Run = MonitorBinary.Completion

    /// Runs the binary without blocking a thread of the cooperative pool: the suite runs beside timing-sensitive
    /// tests on two threads, and a test blocked in `waitUntilExit` starves them (a cancellation test timed out so).
    static func run(_ arguments: [String], standardInput: Data? = nil) async throws -> Run {
        try await MonitorBinary.run(arguments, standardInput: standardInput)
    }

    static func corpus(_ name: String) -> String { ParserTestSupport.corpusDirectory + "/\(name).json" }

    /// A scratch file holding `text`, removed afterwards.
    static func withTemporaryFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    @Test("lint exits 0 without errors, 1 with errors and 2 for an unreadable file or bad usage")
    func lintExitCodes() async throws {
        #expect(try await Self.run(["lint", Self.corpus("001")]).status == 0)
        #expect(try await Self.run(["lint", Self.corpus("018")]).status == 0)  // warnings only
        #expect(try await Self.run(["lint", Self.corpus("040")]).status == 1)
        #expect(try await Self.run(["lint", Self.corpus("035")]).status == 1)
        let missing = try await Self.run(["lint", "/nonexistent/aasa.json"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read /nonexistent/aasa.json"))
        #expect(try await Self.run(["lint"]).status == 2)
        #expect(try await Self.run(["lint", "--bogus", Self.corpus("001")]).status == 2)
    }

    @Test("lint reads standard input, and refuses directories and devices with exit 2 and the reason")
    func lintInputKinds() async throws {
        let corpusFile = try Data(contentsOf: URL(fileURLWithPath: Self.corpus("035")))
        let piped = try await Self.run(["lint", "/dev/stdin"], standardInput: corpusFile)
        #expect(piped.status == 1)
        #expect(piped.output.contains("aasa.appid_placeholder"))
        let directory = try await Self.run(["lint", FileManager.default.temporaryDirectory.path])
        #expect(directory.status == 2)
        #expect(directory.error.contains("not a regular file (a directory)"))
        // Only regular files are read (a device could be endless, a FIFO could block); `-` is standard input.
        let endless = try await Self.run(["lint", "/dev/zero"])
        #expect(endless.status == 2)
        #expect(endless.error.contains("not a regular file (a character device)"))
        let dash = try await Self.run(["lint", "-"], standardInput: corpusFile)
        #expect(dash.status == 1)
        #expect(dash.output.contains("aasa.appid_placeholder"))
    }

    @Test("lint prints one line per finding: severity, code, path and message")
    func lintHumanOutput() async throws {
        let run = try await Self.run(["lint", Self.corpus("035")])
        let lines = run.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("error aasa.appid_placeholder $.applinks.details[0].appIDs[0]: ") == true)
    }

    @Test("lint --json prints the documented shape")
    func lintJSON() async throws {
        let run = try await Self.run(["lint", "--json", Self.corpus("059")])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["file"] as? String == Self.corpus("059"))
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.first?["code"] as? String == "origin.json")
        #expect(findings.first?["severity"] as? String == "error")
        #expect(findings.first?["message"] as? String != nil)
        #expect(findings.last?["path"] as? String == "$.applinks.details[0].appIDs[0]")
        // A finding about the body as a whole still has the key, as null.
        #expect(findings.first?.keys.contains("path") == true)
        #expect(findings.first?["path"] is NSNull)
    }

    @Test("match exits 0 whatever the decisions and 2 for bad usage, and --json always has a rule key")
    func matchCommand() async throws {
        let file = Self.corpus("001")
        let missingApp = try await Self.run(["match", "--file", file, "https://example.com/"])
        #expect(missingApp.status == 2)
        #expect(try await Self.run(["match", "--file", file, "--app", "A1B2C3D4E5.x"]).status == 2)
        #expect(
            try await Self.run(["match", "--file", "/nonexistent", "--app", "A1B2C3D4E5.x", "https://e.com/"]).status
                == 2)
        #expect(try await Self.run(["match", "--file", file, "--app", "A1B2C3D4E5.x", "ftp://e.com/"]).status == 2)
        let run = try await Self.run(["match", "--json", "--file", file, "--app", "A1B2C3D4E5.x", "https://e.com/"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.first?["decision"] as? String == "no_match")
        #expect(results.first?["rule"] is NSNull)
    }

    @Test("diff exits 0 for the same meaning, 1 for a different one and 2 for an unparseable file")
    func diffExitCodes() async throws {
        let respelled =
            "\n{ \"activitycontinuation\" : {\"apps\":[\"S32Z3HMYVQ.io.sidestore\",\"S32Z3HMYVQ.com.joemattiello2.SideStore\"]},\n\"webcredentials\":{\"apps\":[\"S32Z3HMYVQ.io.sidestore\",\"S32Z3HMYVQ.com.joemattiello2.SideStore\"]}}"
        try await Self.withTemporaryFile(respelled) { path in
            let same = try await Self.run(["diff", Self.corpus("022"), path])
            #expect(same.status == 0)
            #expect(same.output.hasPrefix("same meaning"))
        }
        #expect(try await Self.run(["diff", Self.corpus("001"), Self.corpus("004")]).status == 1)
        #expect(try await Self.run(["diff", Self.corpus("001"), Self.corpus("040")]).status == 2)
        #expect(try await Self.run(["diff", Self.corpus("001"), "/nonexistent"]).status == 2)
        #expect(try await Self.run(["diff", Self.corpus("001")]).status == 2)
    }

    @Test("diff --json prints the documented shape")
    func diffJSON() async throws {
        let run = try await Self.run(["diff", "--json", Self.corpus("010"), Self.corpus("030")])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["same_meaning"] as? Bool == false)
        #expect((object["hash_a"] as? String)?.hasPrefix("sha256:") == true)
        #expect((object["hash_b"] as? String)?.hasPrefix("sha256:") == true)
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(
            changes.contains {
                $0["kind"] as? String == "app_added" && $0["path"] as? String == "$.webcredentials.apps"
            })
        #expect(changes.allSatisfy { $0["affects_behavior"] is Bool })
    }
}

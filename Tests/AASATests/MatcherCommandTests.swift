import EndToEndSlot
import Foundation
import TestSupport
import Testing

/// Issue 12 item 9 through the real binary: `match` decides the issue's hostile rule, and answers a rule it
/// cannot decide within the step budget with "pattern too large to decide safely" and exit 1, not minutes.
@Suite("match with hostile rules, through the real binary", .endToEndSlot)
struct MatcherCommandTests {
    static let app = "ABCDE12345.com.example.app"

    static func document(_ paths: [String]) -> String {
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": [\#(list)]}]}}"#
    }

    @Test("a 120 KB *a*a…b rule against a 100 KB URL is decided (it took 87 s before)")
    func issueRule() async throws {
        let file = Self.document(["NOT /x", "/" + String(repeating: "*a", count: 60_000) + "b"])
        let url = "https://example.com/" + String(repeating: "a", count: 100_000)
        try await CommandTests.withTemporaryFile(file) { path in
            let miss = try await CommandTests.run(["match", "--file", path, "--app", Self.app, url])
            #expect(miss.status == 0)
            #expect(miss.output.hasPrefix("no_match"))
            let hit = try await CommandTests.run(["match", "--file", path, "--app", Self.app, url + "b"])
            #expect(hit.status == 0)
            #expect(hit.output.hasPrefix("match"))
        }
    }

    @Test("a rule needing text × pattern steps is undecided: exit 1, the reason and the rule in --json")
    func undecidedRule() async throws {
        let file = Self.document(["/*" + String(repeating: "a?", count: 3_000) + "b*"])
        let url = "https://example.com/" + String(repeating: "a", count: 100_000)
        try await CommandTests.withTemporaryFile(file) { path in
            let run = try await CommandTests.run(["match", "--json", "--file", path, "--app", Self.app, url])
            #expect(run.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let result = try #require((object["results"] as? [[String: Any]])?.first)
            #expect(result["decision"] as? String == "undecided")
            let reason = try #require(result["reason"] as? String)
            #expect(reason.hasPrefix("pattern too large to decide safely: the rule at $.applinks.details[0].paths[0]"))
            #expect((result["rule"] as? [String: Any])?["json_path"] as? String == "$.applinks.details[0].paths[0]")
        }
    }
}

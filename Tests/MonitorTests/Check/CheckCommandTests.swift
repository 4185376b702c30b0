import EndToEndSlot
import Foundation
import MonitorDaemon
import TestSupport
import Testing

/// The real `aasa-monitor check` binary against the fixture scenarios: exit codes and the JSON interface.
@Suite("check command", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckCommandTests {
    @Test("exit codes: 0 ready, 1 origin broken (the most severe wins), 3 CDN behind, 4 expectation failed, 2 usage")
    func exitCodes() async throws {
        let domains = ["ready", "gone", "stale", "missing", "absent", "unknown", "expect"].map { "\($0).origin.test" }
        try await CheckScenarios.with(cdnDomains: domains) { scenarios in
            func check(_ arguments: [String]) async throws -> MonitorBinary.Completion {
                try await MonitorBinary.run(["check"] + arguments + scenarios.commandOptions)
            }
            #expect(try await check(["ready.origin.test"]).status == 0)
            #expect(try await check(["ready.origin.test", "stale.origin.test", "gone.origin.test"]).status == 1)
            #expect(try await check(["stale.origin.test"]).status == 3)
            let absent = try await check(["absent.origin.test"])
            #expect(absent.status == 3, "\(absent.output)")
            // Apple's CDN says the origin answered it 403 (a WAF for Apple's network only): the origin is broken.
            #expect(try await check(["missing.origin.test"]).status == 1)
            #expect(try await check(["unknown.origin.test", "ready.origin.test"]).status == 3)
            // The origin already excludes /buy/gift; Apple's older copy does not yet: wait (3), not fail (4).
            let noGift = "https://expect.origin.test/buy/gift=\(CheckScenarios.app)"
            #expect(try await check(["expect.origin.test", "--expect-no-url", noGift]).status == 3)
            // /buy/2 opens the app on the origin too: that fails, whatever Apple serves.
            let noTwo = "https://expect.origin.test/buy/2=\(CheckScenarios.app)"
            #expect(try await check(["expect.origin.test", "--expect-no-url", noTwo]).status == 4)
            #expect(
                try await check(["expect.origin.test", "stale.origin.test", "--expect-no-url", noTwo]).status == 4)
            let usage = try await check([
                "ready.origin.test", "--expect-url", "https://elsewhere.test/x=\(CheckScenarios.app)",
            ])
            #expect(usage.status == 2)
            #expect(usage.error.contains("elsewhere.test is not one of the domains checked"))
            #expect(try await check([]).status == 2)
            #expect(try await check(["ready.origin.test", "--connect-to", "nonsense"]).status == 2)
            #expect(try await check(["ready.origin.test", "--bogus"]).status == 2)
        }
    }

    @Test("an origin answering in 7 s, past Apple's budget, is origin_broken (exit 1), asked once, citing Apple")
    func slowOriginIsBroken() async throws {
        try await CheckScenarios.with(cdnDomains: ["slow.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(["check", "slow.origin.test"] + scenarios.commandOptions)
            #expect(run.status == 1, "\(run.output)\(run.error)")
            #expect(run.output.contains("origin.slow"))
            #expect(run.output.contains("SWCERR00301 Timeout"))
            #expect(run.output.contains("because of origin.slow"))
            // Past Apple's 5 s budget the comparison would only wait 7 s more: one `.well-known` request, Apple's.
            let asked = scenarios.origin.requests.filter { $0.path == "/.well-known/apple-app-site-association" }
            #expect(asked.map(\.userAgent) == ["AASA-Bot/1.0.0"])
        }
    }

    @Test("--json prints one document in the documented shape")
    func json() async throws {
        try await CheckScenarios.with(cdnDomains: ["missing.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(
                ["check", "missing.origin.test", "--json"] + scenarios.commandOptions)
            #expect(run.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let domain = try #require((object["domains"] as? [[String: Any]])?.first)
            #expect(domain["domain"] as? String == "missing.origin.test")
            #expect(domain["verdict"] as? String == "origin_broken")
            let findings = try #require(domain["findings"] as? [[String: Any]])
            let diagnosis = try #require(findings.first { $0["code"] as? String == "origin.apple_failure" })
            #expect(diagnosis["caused_by"] is NSNull)
            let finding = try #require(findings.first { $0["code"] as? String == "cdn.missing" })
            let cause = try #require(finding["caused_by"] as? [String: Any])
            #expect(cause["code"] as? String == "origin.apple_failure")
            #expect(finding["source"] as? String == "cdn")
            #expect(finding["severity"] as? String == "error")
            let detail = try #require(finding["detail"] as? [String: Any])
            #expect(detail["apple_failure_reason"] as? String == "SWCERR00101 Bad HTTP Response: 403 Forbidden")
            let origin = try #require(domain["origin"] as? [String: Any])
            let wellKnown = try #require(origin["well_known"] as? [String: Any])
            #expect(wellKnown["status"] as? Int == 200)
            #expect((wellKnown["canonical_hash"] as? String)?.hasPrefix("sha256:") == true)
            let cdn = try #require(domain["cdn"] as? [String: Any])
            #expect(cdn["status"] as? Int == 404)
            #expect(cdn["age"] as? Int == 10)
            #expect(cdn["max_age"] as? Int == 3600)
            #expect((cdn["apple_failure_reason"] as? [String: Any])?["code"] as? String == "SWCERR00101")
        }
    }

    @Test("the human report puts the verdict first and groups findings by source")
    func humanReport() async throws {
        try await CheckScenarios.with(cdnDomains: ["stale.origin.test"]) { scenarios in
            let run = try await MonitorBinary.run(["check", "stale.origin.test"] + scenarios.commandOptions)
            let lines = run.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("stale.origin.test: cdn_stale") == true)
            #expect(lines.contains("  cdn"))
            #expect(lines.contains { $0.contains("warning cdn.stale:") })
            #expect(lines.contains { $0.hasPrefix("  Apple's copy → origin") })
        }
    }

    @Test("--config supplies the domains, their expectations and the http and cdn settings")
    func fromConfiguration() async throws {
        try await CheckScenarios.with(cdnDomains: ["ready.origin.test", "expect.origin.test"]) { scenarios in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID()).yml").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let rules = scenarios.connectTo.map { "\"\($0)\"" }.joined(separator: ", ")
            try """
            http: { timeout: 30s, ca_file: \(scenarios.caBundle), connect_to: [\(rules)] }
            cdn: { base_url: https://cdn.test/a/v1/ }
            domains:
              - name: ready.origin.test
              - name: expect.origin.test
                expect:
                  urls: [{ url: "https://expect.origin.test/buy/2", app: \(CheckScenarios.app), decision: not_match }]
            """.write(toFile: file, atomically: true, encoding: .utf8)
            let both = try await MonitorBinary.run(["check", "--config", file, "--json"])
            #expect(both.status == 4, "\(both.error)")
            #expect(both.output.contains(#""domain":"ready.origin.test""#))
            #expect(try await MonitorBinary.run(["check", "ready.origin.test", "--config", file]).status == 0)
            try "domains: [".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try await MonitorBinary.run(["check", "--config", file]).status == 2)
        }
    }
}

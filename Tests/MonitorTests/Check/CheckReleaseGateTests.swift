import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import TestSupport
import Testing

/// The release gate with the real binary: a copy of Apple's that only lags is "wait" (3), never "fix your file" (4);
/// the cause we saw ourselves is the cause; the JSON document carries a summary for CI scripts.
@Suite("check as a release gate", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckReleaseGateTests {
    static let domains = ["newapp.origin.test", "ready.origin.test", "htmlmissing.origin.test"]

    @Test(
        "an app the origin lists and Apple's older copy does not yet is cdn_stale (3); one the origin lacks fails (4)")
    func laggingCopyWaits() async throws {
        try await CheckScenarios.with(cdnDomains: Self.domains) { scenarios in
            func check(_ arguments: [String]) async throws -> MonitorBinary.Completion {
                try await MonitorBinary.run(["check"] + arguments + scenarios.commandOptions)
            }
            let lagging = try await check(["newapp.origin.test", "--expect-app", CheckScenarios.newApp])
            #expect(lagging.status == 3, "\(lagging.output)\(lagging.error)")
            #expect(lagging.output.contains("newapp.origin.test: cdn_stale"))
            #expect(lagging.output.contains("the origin lists it"))
            #expect(lagging.output.contains("wait for Apple's refresh"))
            #expect(!lagging.output.contains("add it to the file"))

            let absent = "9JA89QQLNQ.com.example.absent"
            let missing = try await check(["newapp.origin.test", "--expect-app", absent])
            #expect(missing.status == 4, "\(missing.output)")
            #expect(missing.output.contains("expectation_failed"))
            #expect(missing.output.contains("\(absent) is not listed in applinks on the origin copy"))
        }
    }

    @Test("--expect-app DOMAIN=APPID applies to that domain only; a bare app ID to every domain")
    func expectAppPerDomain() async throws {
        try await CheckScenarios.with(cdnDomains: Self.domains) { scenarios in
            func check(_ arguments: [String]) async throws -> MonitorBinary.Completion {
                try await MonitorBinary.run(["check"] + arguments + scenarios.commandOptions)
            }
            let both = ["newapp.origin.test", "ready.origin.test"]
            // ready.origin.test does not list the new app: bare, it fails there.
            #expect(try await check(both + ["--expect-app", CheckScenarios.newApp]).status == 4)
            let scoped = try await check(both + ["--expect-app", "newapp.origin.test=\(CheckScenarios.newApp)"])
            #expect(scoped.status == 3, "\(scoped.output)")
            let elsewhere = try await check(both + ["--expect-app", "other.test=\(CheckScenarios.newApp)"])
            #expect(elsewhere.status == 2)
            #expect(elsewhere.error.contains("other.test is not one of the domains checked"))
            let help = try await MonitorBinary.run(["check", "--help"])
            #expect(help.output.contains("DOMAIN=APPID to that"), "\(help.output)")
        }
    }

    @Test("HTML served with 200 is the root cause of Apple's SWCERR00401, and nothing blames Apple's network")
    func observedContentIsTheCause() async throws {
        try await CheckScenarios.with(cdnDomains: Self.domains) { scenarios in
            let run = try await MonitorBinary.run(
                ["check", "htmlmissing.origin.test", "--json"] + scenarios.commandOptions)
            #expect(run.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let domain = try #require((object["domains"] as? [[String: Any]])?.first)
            let findings = try #require(domain["findings"] as? [[String: Any]])
            #expect(!findings.contains { $0["code"] as? String == "origin.apple_failure" })
            let json = try #require(findings.first { $0["code"] as? String == "origin.json" })
            #expect(json["caused_by"] is NSNull)
            let missing = try #require(findings.first { $0["code"] as? String == "cdn.missing" })
            #expect((missing["caused_by"] as? [String: Any])?["code"] as? String == "origin.json")
            #expect((missing["message"] as? String)?.contains("SWCERR00401") == true)

            let text = try await MonitorBinary.run(["check", "htmlmissing.origin.test"] + scenarios.commandOptions)
            // A 404 is no copy: Apple's answer, cached an hour past its max-age, expired; it never "expires now".
            #expect(text.output.contains("Apple has no copy; its answer expired"), "\(text.output)")
            #expect(!text.output.contains("Apple's copy expires"))
            #expect(text.output.contains("because of origin.json"))
        }
    }

    @Test("--json ends with a summary: the worst verdict, the exit code, the version and the time")
    func jsonSummary() async throws {
        try await CheckScenarios.with(cdnDomains: Self.domains) { scenarios in
            let run = try await MonitorBinary.run(
                [
                    "check", "ready.origin.test", "newapp.origin.test", "--expect-app",
                    "newapp.origin.test=\(CheckScenarios.newApp)", "--json",
                ] + scenarios.commandOptions)
            #expect(run.status == 3)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect((object["domains"] as? [Any])?.count == 2)
            let summary = try #require(object["summary"] as? [String: Any])
            #expect(summary["verdict"] as? String == "cdn_stale")
            #expect(summary["exit_code"] as? Int == 3)
            #expect(summary["domains"] as? Int == 2)
            #expect(summary["verdicts"] as? [String: Int] == ["ready": 1, "cdn_stale": 1])
            #expect(summary["version"] as? String == MonitorVersion.current)
            #expect((summary["checked_at"] as? String)?.hasSuffix("Z") == true)
        }
    }
}

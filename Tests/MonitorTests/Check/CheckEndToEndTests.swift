import AASA
import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import TestSupport
import Testing

/// `check` against many fixture origins and a fake Apple CDN: every origin and CDN code and every verdict.
///
/// Every domain that must answer is checked in one run with the 30 s timeout, so no verdict depends on how fast a
/// loaded machine is; `hang.origin.test`, which must time out, is checked in a run of its own with a short timeout.
@Suite("check end to end", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckEndToEndTests {
    static let originDomains = [
        "ready", "stale", "missing", "botblock", "gone", "rootonly", "redirect", "large", "html", "ctype", "bom",
        "expect", "unknown", "invalid",
    ].map { "\($0).origin.test" }
    static let certificateDomains = ["expired.test", "wronghost.test", "untrusted.test", "expiring.test"]

    static func targets() -> [CheckRunner.Target] {
        (originDomains + certificateDomains).map { domain in
            guard domain == "expect.origin.test" else { return CheckRunner.Target(domain: domain) }
            return CheckRunner.Target(
                domain: domain,
                expectations: Expectations(
                    apps: [ExpectedApp(appID: CheckScenarios.app)],
                    urls: [
                        ExpectedURL(
                            url: "https://expect.origin.test/buy/1", appID: CheckScenarios.app, decision: .match),
                        ExpectedURL(
                            url: "https://expect.origin.test/buy/gift-card", appID: CheckScenarios.app,
                            decision: .notMatch),
                        ExpectedURL(
                            url: "https://expect.origin.test/buy/2", appID: CheckScenarios.app, decision: .notMatch),
                    ]))
        }
    }

    @Test("one run over every answering scenario gives each domain its verdict and codes, and every verdict happens")
    func everyScenario() async throws {
        let all = Self.originDomains + Self.certificateDomains
        let reports = try await CheckScenarios.with(cdnDomains: all) { scenarios in
            try await CheckRunner.run(Self.targets(), probe: scenarios.settings, evaluation: EvaluationSettings())
        }
        #expect(reports.map(\.domain) == all)
        let byDomain = Dictionary(uniqueKeysWithValues: reports.map { ($0.domain, $0) })
        func report(_ domain: String) throws -> DomainReport { try #require(byDomain[domain]) }
        func codes(_ domain: String) throws -> Set<String> { Set(try report(domain).findings.map(\.code.id)) }

        let ready = try report("ready.origin.test")
        #expect(ready.verdict == .ready, "\(ready.findings)")
        #expect(ready.findings.isEmpty)
        #expect(ready.originHash == ready.cdnHash)
        #expect(ready.cdn?.maxAge == 21600)
        #expect(ready.origin.wellKnown.certificate?.subjectAlternativeNames == ["*.origin.test"])

        let stale = try report("stale.origin.test")
        #expect(stale.verdict == .cdnStale)
        #expect(try #require(stale.diff).changes.contains { $0.affectsBehavior })

        let missing = try report("missing.origin.test")
        // Apple says the origin answered its fetcher 403 while we got 200: Apple's view is the one that counts.
        #expect(missing.verdict == .originBroken)
        #expect(missing.findings.first { $0.has(.originAppleFailure) }?.causedBy == nil)
        let reason = missing.findings.first { $0.code == .cdnMissing }?.detail["apple_failure_reason"]
        #expect(reason == "SWCERR00101 Bad HTTP Response: 403 Forbidden")

        #expect(try report("botblock.origin.test").verdict == .originBroken)
        #expect(try codes("botblock.origin.test").contains("origin.bot_blocked"))
        #expect(try codes("gone.origin.test").isSuperset(of: ["origin.status", "cdn.only"]))
        #expect(try codes("rootonly.origin.test").contains("origin.root_only"))
        let redirect = try #require(try report("redirect.origin.test").findings.first { $0.code == .originRedirect })
        #expect(
            redirect.detail["location"] == "https://www.redirect.origin.test/.well-known/apple-app-site-association")
        #expect(try codes("large.origin.test").contains("origin.too_large"))
        #expect(try codes("html.origin.test").isSuperset(of: ["origin.json", "origin.content_type"]))
        #expect(try report("ctype.origin.test").verdict == .ready)
        #expect(try codes("ctype.origin.test") == ["origin.content_type"])
        #expect(try report("bom.origin.test").verdict == .ready)
        #expect(try codes("bom.origin.test") == ["origin.bom"])

        let expect = try report("expect.origin.test")
        #expect(expect.verdict == .expectationFailed)
        let failures = expect.findings.filter { $0.code.family == .expectation && $0.severity == .error }
        #expect(Set(failures.map(\.source)) == [.wellKnown, .cdn])
        #expect(Set(failures.map(\.subject)) == ["https://expect.origin.test/buy/2"])
        // The gift-card exclusion is on the origin already: Apple's older copy only lags behind it.
        let lagging = try #require(expect.findings.first { $0.subject.hasSuffix("/buy/gift-card") })
        #expect(lagging.severity == .warning)
        #expect(lagging.source == .cdn)
        #expect(lagging.causedBy?.code == .cdnStale)
        #expect(lagging.message.contains("wait for Apple's refresh"))

        #expect(try report("unknown.origin.test").verdict == .unknown)
        #expect(try codes("unknown.origin.test") == ["cdn.unreachable"])
        #expect(try report("invalid.origin.test").verdict == .cdnMissing)
        #expect(try codes("invalid.origin.test").contains("cdn.invalid"))

        #expect(try codes("expired.test").contains("origin.tls.expired"))
        #expect(try report("expired.test").origin.wellKnown.certificate != nil)
        #expect(try codes("wronghost.test").contains("origin.tls.hostname"))
        #expect(try codes("untrusted.test").contains("origin.tls.untrusted"))
        #expect(try report("expiring.test").verdict == .ready)
        #expect(try codes("expiring.test") == ["origin.tls.expiring"])
        // Every verdict happened in this one run.
        #expect(Set(reports.map(\.verdict)) == Set(Verdict.allCases))
    }

    @Test("an origin that never answers times out: origin.timeout, origin_broken, and no plain comparison waits")
    func hangingOrigin() async throws {
        // The one domain of this run must time out, and nothing else in it has to answer in time: 2 s is enough.
        let (reports, asked) = try await CheckScenarios.with(cdnDomains: ["hang.origin.test"], timeout: .seconds(2)) {
            scenarios in
            let reports = try await CheckRunner.run(
                [CheckRunner.Target(domain: "hang.origin.test")], probe: scenarios.settings,
                evaluation: EvaluationSettings())
            return (reports, scenarios.origin.requests.map { $0.userAgent ?? "" })
        }
        let hang = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(hang.origin.wellKnown.error == FetchFailure.Kind.timeout.rawValue)
        #expect(hang.origin.plainStatus == nil)
        #expect(!asked.contains { $0.hasPrefix("aasa-monitor/") }, "\(asked)")
        #expect(Set(hang.findings.map(\.code.id)).contains("origin.timeout"), "\(hang.findings)")
        #expect(hang.verdict == .originBroken)
    }
}

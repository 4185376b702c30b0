import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Expectations on both copies")
struct ExpectationEvaluationTests {
    typealias F = ObservationFixtures

    @Test("a URL the origin already gets right and Apple's older copy not yet is that copy lagging: cdn_stale")
    func urlOnOriginNotCDN() throws {
        let expectations = Expectations(urls: [
            ExpectedURL(url: "https://shop.test/buy/gift-card", appID: F.app, decision: .notMatch),
            ExpectedURL(url: "https://shop.test/buy/1", appID: F.app, decision: .match),
        ])
        let report = F.evaluate(F.observation(cdn: F.json(F.olderDocument)), expectations: expectations)
        #expect(report.verdict == .cdnStale)
        let failures = report.findings.filter { $0.code == .expectURL }
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.severity == .warning)
        #expect(failure.causedBy?.code == .cdnStale)
        #expect(failure.detail["lagging"] == .bool(true))
        #expect(failure.message.contains("wait for Apple's refresh"))
        #expect(failure.source == .cdn)
        #expect(failure.subject == "https://shop.test/buy/gift-card")
        #expect(failure.detail["decision"] == "match")
        #expect(failure.detail["copy"] == "cdn")
    }

    @Test("a missing app is expect.app_missing per service and copy; two failing URLs are two findings")
    func appsAndURLs() {
        let expectations = Expectations(
            apps: [
                ExpectedApp(appID: "ZZZZZ99999.com.example.other"),
                ExpectedApp(service: "webcredentials", appID: F.app),
                ExpectedApp(service: "appclips", appID: F.app),
            ],
            urls: [
                ExpectedURL(url: "https://shop.test/help", appID: F.app, decision: .match),
                ExpectedURL(url: "https://shop.test/about", appID: F.app, decision: .match),
            ])
        let report = F.evaluate(F.observation(), expectations: expectations)
        #expect(report.verdict == .expectationFailed)
        let missing = report.findings.filter { $0.code == .expectAppMissing }
        #expect(missing.count == 4)  // two apps, each on both copies
        #expect(Set(missing.map(\.subject)) == ["ZZZZZ99999.com.example.other", "appclips:\(F.app)"])
        let urls = report.findings.filter { $0.code == .expectURL }
        #expect(Set(urls.map(\.subject)) == ["https://shop.test/help", "https://shop.test/about"])
        #expect(Set(urls.map(\.source)) == [.wellKnown, .cdn])
    }

    @Test("expectations that hold leave the domain ready")
    func holding() {
        let expectations = Expectations(
            apps: [ExpectedApp(appID: F.app)],
            urls: [
                ExpectedURL(url: "https://shop.test/buy/1", appID: F.app, decision: .match),
                ExpectedURL(url: "https://shop.test/buy/gift", appID: F.app, decision: .exclude),
                ExpectedURL(url: "https://shop.test/other", appID: F.app, decision: .noMatch),
            ])
        #expect(F.evaluate(F.observation(), expectations: expectations).verdict == .ready)
    }
}

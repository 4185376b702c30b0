import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Evaluation of Apple's CDN copy")
struct CDNEvaluationTests {
    typealias F = ObservationFixtures

    @Test("an older copy at Apple is cdn_stale with the diff and the expected refresh")
    func stale() throws {
        let report = F.evaluate(F.observation(cdn: F.json(F.olderDocument, headers: F.cdnHeaders)))
        #expect(report.verdict == .cdnStale)
        let finding = try #require(report.finding("cdn.stale"))
        #expect(finding.severity == .warning)
        #expect(finding.detail["expected_refresh"] == .string(RFC3339.string(F.now.addingTimeInterval(3000))))
        #expect(finding.detail["since"] == .string(RFC3339.string(F.now)))
        let diff = try #require(report.diff)
        #expect(!diff.sameMeaning)
        #expect(diff.canChangeBehavior)
        #expect(report.documents.count == 2)
    }

    @Test("a stale copy older than stale_after is an error")
    func staleEscalates() {
        let report = F.evaluate(
            F.observation(cdn: F.json(F.olderDocument)), staleSince: F.now.addingTimeInterval(-86_400 - 1))
        #expect(report.finding("cdn.stale")?.severity == .error)
        #expect(report.verdict == .cdnStale)
    }

    @Test("a 404 without Apple's reason while the origin is fine is cdn_missing: wait for Apple")
    func missingWithoutReason() throws {
        let report = F.evaluate(F.observation(cdn: F.status(404)))
        #expect(report.verdict == .cdnMissing)
        #expect(report.finding("origin.apple_failure") == nil)
        #expect(try #require(report.finding("cdn.missing")).causedBy == nil)
    }

    @Test("a copy that differs only in a comment is info and the domain is ready")
    func commentOnly() {
        let commented = F.document.replacingOccurrences(of: #"{"/":"/buy/*"}"#, with: #"{"/":"/buy/*","comment":"x"}"#)
        let report = F.evaluate(F.observation(cdn: F.json(commented)))
        #expect(report.finding("cdn.stale")?.severity == .info)
        #expect(report.verdict == .ready)
    }

    @Test("a 404 with Apple's failure headers blaming the origin is origin_broken, citing Apple's reason")
    func missing() throws {
        let headers = [
            HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
            HeaderField(name: "Apple-Failure-Details", value: #"{"cause":"bad status","status":403}"#),
            HeaderField(name: "Apple-From", value: "https://shop.test/.well-known/apple-app-site-association, edge"),
            HeaderField(name: "Apple-Try-Direct", value: "false"), HeaderField(name: "Age", value: "12"),
        ]
        let report = F.evaluate(F.observation(cdn: F.status(404, headers: headers)))
        // Our own fetch got 200, but Apple's fetcher got 403: Apple's view is the one devices live with.
        #expect(report.verdict == .originBroken)
        let diagnosis = try #require(report.finding("origin.apple_failure"))
        #expect(diagnosis.message.contains("SWCERR00101 Bad HTTP Response: 403 Forbidden"))
        #expect(diagnosis.message.contains("our own fetch got 200"))
        let finding = try #require(report.finding("cdn.missing"))
        #expect(finding.causedBy == FindingCause(code: .originAppleFailure, source: .wellKnown))
        #expect(finding.detail["apple_failure_reason"] == "SWCERR00101 Bad HTTP Response: 403 Forbidden")
        #expect(finding.detail["apple_failure_code"] == "SWCERR00101")
        #expect(finding.detail["apple_failure_details"] == .object(["cause": "bad status", "status": 403]))
        #expect(finding.message.contains("SWCERR00101 Bad HTTP Response: 403 Forbidden"))
        let cdn = try #require(report.cdn)
        #expect(cdn.appleFailureReason?.text == "Bad HTTP Response: 403 Forbidden")
        #expect(cdn.appleFrom == ["https://shop.test/.well-known/apple-app-site-association", "edge"])
        #expect(cdn.appleTryDirect == "false")
        #expect(cdn.age == 12)
    }

    @Test("garbage in Apple's headers is kept verbatim, never trusted")
    func garbageHeaders() throws {
        let headers = [
            HeaderField(name: "Apple-Failure-Reason", value: "something odd"),
            HeaderField(name: "Apple-Failure-Details", value: "{not json"),
            HeaderField(name: "Age", value: "-5"), HeaderField(name: "Cache-Control", value: "max-age=abc"),
        ]
        let report = F.evaluate(F.observation(cdn: F.status(404, headers: headers)))
        let cdn = try #require(report.cdn)
        #expect(cdn.appleFailureReason?.code == nil)
        #expect(cdn.appleFailureReason?.text == "something odd")
        #expect(cdn.appleFailureDetails == "{not json")
        #expect(cdn.age == nil)
        #expect(cdn.maxAge == nil)
        #expect(cdn.expectedRefresh == nil)
    }

    @Test("the origin broken while Apple still serves a copy is origin_broken with cdn.only")
    func cdnOnly() {
        let report = F.evaluate(F.observation(wellKnown: F.status(404)))
        #expect(report.verdict == .originBroken)
        #expect(report.codes.contains("cdn.only"))
        #expect(!report.codes.contains("cdn.stale"))
    }

    @Test(
        "a CDN that cannot be asked makes the verdict unknown",
        arguments: [F.failure(.connect), F.status(503), F.status(500)])
    func unreachable(outcome: FetchObservation.Outcome) {
        let report = F.evaluate(F.observation(cdn: outcome))
        #expect(report.verdict == .unknown)
        #expect(report.finding("cdn.unreachable")?.severity == .warning)
    }

    @Test("a 200 from the CDN whose body is not a document is cdn.invalid")
    func invalid() {
        let report = F.evaluate(F.observation(cdn: F.json("<html>oops</html>")))
        #expect(report.verdict == .cdnMissing)
        #expect(report.codes.contains("cdn.invalid"))
    }

    @Test("lint findings of Apple's copy carry source cdn and do not decide the verdict")
    func cdnLint() {
        let odd = F.documentReserialized.replacingOccurrences(of: "\"webcredentials\"", with: "\"webcredential\"")
        let report = F.evaluate(F.observation(cdn: F.json(odd)))
        #expect(report.findings.contains { $0.code == .aasaUnknownKey && $0.source == .cdn })
        #expect(report.verdict == .cdnStale)
    }
}

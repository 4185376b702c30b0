import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The cause rules from an on-call engineer's side: what a site does in, which findings alert and which are context.
@Suite("Cause rules")
struct CauseRulesTests {
    typealias F = ObservationFixtures

    /// A report's findings as `code@source` of those that alert, and `code@source<-cause` of those that do not.
    static func story(_ report: DomainReport) -> (alerting: [String], context: [String]) {
        let alerting = report.findings.filter { $0.causedBy == nil && $0.severity > .info }
            .map { "\($0.code)@\($0.source.rawValue)" }
        let context = report.findings.compactMap { finding in
            finding.causedBy.map { "\(finding.code)@\(finding.source.rawValue)<-\($0.code)" }
        }
        return (alerting, context)
    }

    static let forbidden = [
        HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00101 Bad HTTP Response: 403 Forbidden")
    ]

    @Test("a WAF that blocks Apple's fetcher is one problem: the block, with Apple's miss and the 403 under it")
    func wafBlock() {
        let report = F.evaluate(
            F.observation(
                wellKnown: F.status(403), plain: F.json(F.document), root: F.status(403),
                cdn: F.status(404, headers: Self.forbidden)))
        let story = Self.story(report)
        #expect(story.alerting == ["origin.bot_blocked@origin.well-known"])
        #expect(story.context.contains("cdn.missing@cdn<-origin.bot_blocked"))
        #expect(story.context.contains("origin.status@origin.well-known<-origin.bot_blocked"))
        #expect(!story.context.contains { $0.hasPrefix("origin.root_only") })
        #expect(report.verdict == .originBroken)
    }

    @Test("a WAF that lets Apple's fetcher time out is still the cause; an expiring certificate still warns")
    func wafTimeout() {
        var observation = F.observation(
            wellKnown: F.failure(.timeout), plain: F.json(F.document), cdn: F.status(404, headers: Self.forbidden))
        observation.wellKnownPlain?.certificate?.notAfter = F.now.addingTimeInterval(5 * 86_400)
        let report = F.evaluate(observation)
        let story = Self.story(report)
        #expect(story.alerting.first == "origin.bot_blocked@origin.well-known")
        #expect(story.context.contains("cdn.missing@cdn<-origin.bot_blocked"))
        #expect(story.context.contains("origin.timeout@origin.well-known<-origin.bot_blocked"))
    }

    @Test("while .well-known fails, the root path is context and never gives advice of its own")
    func rootIsContext() {
        let report = F.evaluate(F.observation(wellKnown: F.status(404), root: F.status(404)))
        let story = Self.story(report)
        #expect(story.alerting.allSatisfy { $0.hasSuffix("@origin.well-known") || $0.hasSuffix("@cdn") })
        #expect(report.findings.filter { $0.source == .root }.allSatisfy { $0.causedBy != nil })
    }

    @Test("a placeholder app ID served on both paths and by Apple is one alert, shown once per source with its path")
    func placeholderEverywhere() throws {
        let placeholder = F.document.replacingOccurrences(of: F.app, with: "ABCDE12345.com.example.app")
        let report = F.evaluate(
            F.observation(
                wellKnown: F.json(placeholder), root: F.json(placeholder),
                cdn: F.json(placeholder, headers: F.cdnHeaders)))
        let codes = report.findings.map(\.code.id)
        let placeholderCode = try #require(codes.first { $0.contains("placeholder") })
        let perSource = report.findings.filter { $0.code.id == placeholderCode }
        #expect(Set(perSource.map(\.source)).count == perSource.count, "one finding per source")
        #expect(perSource.allSatisfy { $0.detail["paths"]?.arrayValue?.isEmpty == false })
        #expect(Self.story(report).alerting.filter { $0.hasPrefix(placeholderCode) }.count == 1)
        #expect(!codes.contains("origin.root_only"), "both paths serve the same file")
    }

    @Test("an origin answering in 7 s while Apple times out is origin_broken, citing Apple's reason")
    func slowOrigin() throws {
        var observation = F.observation(
            cdn: F.status(404, headers: [HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00301 Timeout")]))
        observation.wellKnown.totalSeconds = 7
        let report = F.evaluate(observation)
        #expect(report.verdict == .originBroken)
        let slow = try #require(report.finding("origin.slow"))
        #expect(slow.severity == .error)
        #expect(slow.message.contains("7.0 s"))
        #expect(report.finding("cdn.missing")?.causedBy == FindingCause(code: .originSlow, source: .wellKnown))
    }

    @Test("Apple timing out on an origin we reach quickly is still the origin's problem, in Apple's words")
    func appleTimesOutFastOrigin() throws {
        let report = F.evaluate(
            F.observation(
                cdn: F.status(404, headers: [HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00301 Timeout")])))
        #expect(report.verdict == .originBroken)
        let diagnosis = try #require(report.finding("origin.apple_failure"))
        #expect(diagnosis.message.contains("SWCERR00301 Timeout"))
        #expect(diagnosis.message.contains("Apple gave up"))
    }

    @Test("a certificate in its last days is an error: an expired one breaks Apple's fetch")
    func expiryCritical() throws {
        var observation = F.observation()
        observation.wellKnown.certificate?.notAfter = F.now.addingTimeInterval(2 * 86_400)
        let report = F.evaluate(observation)
        #expect(try #require(report.finding("origin.tls.expiring")).severity == .error)
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// A failure Apple cached before the origin's file changed is Apple lagging (`cdn.missing`, 3); one cached after is
/// Apple's diagnosis of the origin as it is (`origin.apple_failure`, 1).
@Suite("Apple's cached failure against the origin's change")
struct CachedFailureTests {
    typealias F = ObservationFixtures

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Apple's 404 with a 403 it cached `age` seconds ago (and `extra` headers), for an hour.
    static func apple403(age: Int?, _ extra: [HeaderField] = []) -> FetchObservation.Outcome {
        var headers = [
            HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
            HeaderField(name: "Cache-Control", value: "max-age=3600"),
        ]
        if let age { headers.append(HeaderField(name: "Age", value: "\(age)")) }
        return F.status(404, headers: headers + extra)
    }

    /// The origin's file, last modified `secondsAgo` before the check (and `extra` headers).
    static func origin(modifiedSecondsAgo: Double, _ extra: [HeaderField] = []) -> FetchObservation.Outcome {
        let modified = httpDate(F.now.addingTimeInterval(-modifiedSecondsAgo))
        return F.json(F.document, headers: [HeaderField(name: "Last-Modified", value: modified)] + extra)
    }

    static func evaluate(
        origin: FetchObservation.Outcome, cdn: FetchObservation.Outcome, originSince: Date? = nil
    ) -> DomainReport {
        DomainEvaluator.evaluate(
            F.observation(wellKnown: origin, cdn: cdn), context: EvaluationContext(originSince: originSince),
            now: F.now)
    }

    @Test("a 403 Apple cached before the file's Last-Modified: cdn_missing, saying so and when Apple's answer expires")
    func beforeLastModified() throws {
        let report = Self.evaluate(origin: Self.origin(modifiedSecondsAgo: 120), cdn: Self.apple403(age: 300))
        #expect(report.verdict == .cdnMissing)
        #expect(report.finding("origin.apple_failure") == nil)
        let missing = try #require(report.finding("cdn.missing"))
        #expect(missing.causedBy == nil)
        #expect(missing.message.contains("before the origin's file changed (its Last-Modified is"))
        #expect(missing.message.contains("(in 55 min)"))
        #expect(missing.detail["origin_changed_per"] == "last_modified")
        #expect(missing.detail["cached_at"] == .string(RFC3339.string(F.now.addingTimeInterval(-300))))
    }

    @Test("Apple's Date dates its answer when it is older than Age says (RFC 9111's apparent age)")
    func dateOlderThanAge() {
        let date = HeaderField(name: "Date", value: Self.httpDate(F.now.addingTimeInterval(-300)))
        let report = Self.evaluate(origin: Self.origin(modifiedSecondsAgo: 120), cdn: Self.apple403(age: nil, [date]))
        #expect(report.verdict == .cdnMissing)
        let cachedAt = RFC3339.string(F.now.addingTimeInterval(-300))
        #expect(report.finding("cdn.missing")?.detail["cached_at"] == .string(cachedAt))
    }

    @Test("a change the daemon saw after Apple cached its answer counts as well")
    func beforeSeenChange() {
        let report = Self.evaluate(
            origin: F.json(F.document), cdn: Self.apple403(age: 300), originSince: F.now.addingTimeInterval(-60))
        #expect(report.verdict == .cdnMissing)
        #expect(report.finding("cdn.missing")?.detail["origin_changed_per"] == "history")
    }

    @Test("Apple's diagnosis stands when its answer is newer than the change, or the change cannot be dated")
    func diagnosisStands() throws {
        let cases: [(String, FetchObservation.Outcome, FetchObservation.Outcome)] = [
            ("file changed before Apple cached", Self.origin(modifiedSecondsAgo: 86_400), Self.apple403(age: 300)),
            ("no Last-Modified", F.json(F.document), Self.apple403(age: 300)),
            // A server that stamps every answer "modified now" says nothing about changes.
            ("Last-Modified of the answer's second", Self.origin(modifiedSecondsAgo: 0), Self.apple403(age: 300)),
            (
                "Last-Modified equal to the answer's Date",
                Self.origin(
                    modifiedSecondsAgo: 120,
                    [HeaderField(name: "Date", value: Self.httpDate(F.now.addingTimeInterval(-120)))]),
                Self.apple403(age: 300)
            ),
            ("Apple's answer says neither Age nor Date", Self.origin(modifiedSecondsAgo: 120), Self.apple403(age: nil)),
        ]
        for (name, origin, cdn) in cases {
            let report = Self.evaluate(origin: origin, cdn: cdn)
            #expect(report.verdict == .originBroken, "\(name)")
            let diagnosis = try #require(report.finding("origin.apple_failure"), "\(name)")
            if name != "Apple's answer says neither Age nor Date" {
                #expect(diagnosis.message.contains("cached 5 min ago, expires"), "\(name): \(diagnosis.message)")
            }
        }
    }

    @Test("an origin broken now is not excused by Apple's older answer: its own finding stays the cause")
    func brokenOriginStaysBroken() {
        let report = Self.evaluate(
            origin: F.status(500, headers: [HeaderField(name: "Last-Modified", value: Self.httpDate(F.now))]),
            cdn: Self.apple403(age: 300), originSince: F.now.addingTimeInterval(-60))
        #expect(report.verdict == .originBroken)
        #expect(report.finding("cdn.missing")?.detail["cached_at"] == nil)
    }
}

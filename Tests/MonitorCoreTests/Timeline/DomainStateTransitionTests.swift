import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Domain state transition")
struct DomainStateTransitionTests {
    typealias R = TimelineReports

    /// Kinds of events without verdict changes, in order.
    private func kinds(_ events: [TimelineEvent]) -> [String] {
        events.map(\.kind.rawValue).filter { $0 != "verdict.changed" }
    }

    @Test(
        "the timeline of a sequence of checks",
        arguments: [
            (
                "first sight in sync",
                [R.report(at: 0, origin: "A", cdn: .answered("A"))],
                ["origin.first_seen"]
            ),
            (
                "first sight while Apple serves another meaning",
                [R.report(at: 0, origin: "B", cdn: .answered("A"))],
                ["origin.first_seen", "cdn.stale"]
            ),
            (
                "change, then Apple catches up",
                [
                    R.report(at: 0, origin: "A", cdn: .answered("A")),
                    R.report(at: 10, origin: "B", cdn: .answered("A")),
                    R.report(at: 20, origin: "B", cdn: .answered("A")),
                    R.report(at: 30, origin: "B", cdn: .answered("B")),
                ],
                ["origin.first_seen", "origin.changed", "cdn.stale", "cdn.propagated", "cdn.in_sync"]
            ),
            (
                "change, change again, then Apple catches up with the newest",
                [
                    R.report(at: 0, origin: "A", cdn: .answered("A")),
                    R.report(at: 10, origin: "B", cdn: .answered("A")),
                    R.report(at: 20, origin: "C", cdn: .answered("A")),
                    R.report(at: 30, origin: "C", cdn: .answered("C")),
                ],
                [
                    "origin.first_seen", "origin.changed", "cdn.stale", "origin.changed", "propagation.superseded",
                    "cdn.propagated", "cdn.in_sync",
                ]
            ),
            (
                "a revert to what Apple serves needs no propagation",
                [
                    R.report(at: 0, origin: "A", cdn: .answered("A")),
                    R.report(at: 10, origin: "B", cdn: .answered("A")),
                    R.report(at: 20, origin: "A", cdn: .answered("A")),
                ],
                [
                    "origin.first_seen", "origin.changed", "cdn.stale", "origin.changed", "propagation.superseded",
                    "cdn.in_sync",
                ]
            ),
            (
                "checks without the CDN change nothing on the CDN side",
                [
                    R.report(at: 0, origin: "A", cdn: .answered("A")),
                    R.report(at: 10, origin: "A", cdn: .notAsked),
                    R.report(at: 20, origin: "A", cdn: .unreachable),
                    R.report(at: 30, origin: "A", cdn: .serverError),
                ],
                ["origin.first_seen"]
            ),
            (
                "Apple missing the file is missing, not stale",
                [
                    R.report(at: 0, origin: "A", cdn: .answered(nil)),
                    R.report(at: 10, origin: "A", cdn: .answered(nil)),
                    R.report(at: 20, origin: "A", cdn: .answered("A")),
                ],
                ["origin.first_seen", "cdn.missing", "cdn.in_sync"]
            ),
        ])
    func timeline(name: String, reports: [DomainReport], expected: [String]) {
        #expect(kinds(R.run(reports).events) == expected, "\(name)")
    }

    @Test("a propagation records its delay from the first check that saw the change, with the check interval")
    func propagationDelay() throws {
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered("A")),
            R.report(at: 10, origin: "B", cdn: .answered("A")),
            R.report(at: 20, origin: "B", cdn: .notAsked),
            R.report(at: 40, origin: "B", cdn: .answered("B")),
        ])
        let propagated = try #require(events.first { $0.kind == .cdnPropagated })
        #expect(propagated.detail["delay"] == .double(30 * 60))
        #expect(propagated.detail["resolution"] == .double(30 * 60))
        #expect(propagated.detail["hash"] == "B")
        #expect(propagated.detail["changed_at"] == .time(R.at(10)))
        #expect(state?.lastPropagationDelay == 1800.0)
        #expect(state?.pendingPropagation == nil)
        #expect(state?.cdnInSync == true)
        #expect(state?.staleSince == nil)
    }

    @Test("a superseded change restarts the clock for the newest meaning")
    func superseded() throws {
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered("A")),
            R.report(at: 10, origin: "B", cdn: .answered("A")),
            R.report(at: 20, origin: "C", cdn: .answered("A")),
            R.report(at: 50, origin: "C", cdn: .answered("C")),
        ])
        let superseded = try #require(events.first { $0.kind == .propagationSuperseded })
        #expect(superseded.detail["hash"] == "B")
        #expect(superseded.detail["superseded_by"] == "C")
        let propagated = try #require(events.first { $0.kind == .cdnPropagated })
        #expect(propagated.detail["delay"] == .double(30 * 60))
        #expect(state?.staleSince == nil)
    }

    @Test("staleness keeps its start and the expected refresh while it lasts")
    func staleSince() {
        let refresh = R.at(360)
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered("A")),
            R.report(at: 10, origin: "B", cdn: .answered("A"), expectedRefresh: refresh),
            R.report(at: 20, origin: "B", cdn: .answered("A"), expectedRefresh: refresh),
            R.report(at: 30, origin: "B", cdn: .notAsked),
        ])
        #expect(state?.cdnInSync == false)
        #expect(state?.staleSince == R.at(10))
        #expect(state?.expectedRefresh == refresh)
        #expect(state?.cdnHash == "A")
        #expect(state?.pendingPropagation == PendingPropagation(originHash: "B", changedAt: R.at(10)))
        #expect(events.filter { $0.kind == .cdnStale }.count == 1)
    }

    @Test("the first check knows nothing about propagation when the CDN was not asked")
    func cdnNeverAsked() {
        let (state, _) = R.run([R.report(at: 0, origin: "A", cdn: .notAsked)])
        #expect(state?.cdnInSync == nil)
        #expect(state?.cdnHash == nil)
        #expect(state?.lastCDNCheck == nil)
        #expect(state?.originHash == "A")
    }

    @Test("verdict changes are events with from and to, and move the since")
    func verdictChanges() {
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered("A"), verdict: .ready),
            R.report(at: 10, origin: "A", cdn: .answered("A"), verdict: .ready),
            R.report(at: 20, origin: nil, cdn: .answered("A"), verdict: .originBroken),
            R.report(at: 30, origin: nil, cdn: .answered("A"), verdict: .originBroken),
        ])
        let changes = events.filter { $0.kind == .verdictChanged }.map(\.detail)
        #expect(changes == [["from": .null, "to": "ready"], ["from": "ready", "to": "origin_broken"]])
        #expect(state?.verdict == .originBroken)
        #expect(state?.verdictSince == R.at(20))
        #expect(state?.lastCheck == R.at(30))
    }

    @Test("a broken origin keeps the last meaning, so its return is not a change")
    func brokenOriginKeepsMeaning() {
        let (state, events) = R.run([
            R.report(at: 0, origin: "A", cdn: .answered("A")),
            R.report(at: 10, origin: nil, cdn: .answered("A"), verdict: .originBroken),
            R.report(at: 20, origin: "A", cdn: .answered("A")),
        ])
        #expect(!events.contains { $0.kind == .originChanged })
        #expect(state?.originHash == "A")
        #expect(state?.originHashSince == R.at(0))
    }

    @Test("open findings keep their since across checks and disappear when gone")
    func findingsSince() throws {
        let redirect = ReportFinding(code: .originRedirect, severity: .error, source: .wellKnown, message: "m")
        let missing = ReportFinding(code: .cdnMissing, severity: .error, source: .cdn, message: "gone")
        let url = ReportFinding(
            code: .expectURL, severity: .error, source: .wellKnown, message: "u", subject: "https://example.com/a")
        let first = R.run([R.report(at: 0, origin: "A", cdn: .answered(nil), findings: [redirect, missing])])
        let second = DomainStateTransition.apply(
            previous: first.state, report: R.report(at: 10, origin: "A", cdn: .notAsked, findings: [redirect, url]))
        let open = Dictionary(uniqueKeysWithValues: second.state.openFindings.map { ($0.key, $0.since) })
        #expect(open[redirect.openKey] == R.at(0))
        #expect(open[url.openKey] == R.at(10))
        #expect(open[missing.openKey] == R.at(0), "the CDN was not asked, so its finding stays open")
        let third = DomainStateTransition.apply(
            previous: second.state, report: R.report(at: 20, origin: "A", cdn: .answered("A"), findings: [url]))
        #expect(third.state.openFindings.map(\.key) == [url.openKey])
        #expect(third.state.openFindings.first?.since == R.at(10))
    }

    @Test("the certificate expiry is kept from the last check that saw one")
    func certificate() {
        let notAfter = R.at(60 * 24 * 30)
        var withCertificate = R.report(at: 0, origin: "A", cdn: .notAsked)
        withCertificate.origin.wellKnown.certificate = CertificateFacts(
            subject: "CN=example.com", issuer: "CN=CA", subjectAlternativeNames: ["example.com"], notBefore: R.at(0),
            notAfter: notAfter)
        let (state, _) = R.run([withCertificate, R.report(at: 10, origin: nil, cdn: .notAsked)])
        #expect(state?.certificateNotAfter == notAfter)
    }
}

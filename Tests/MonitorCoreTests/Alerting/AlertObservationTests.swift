import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// A check that could not see a problem's source says nothing about it: its alert neither resolves nor advances.
@Suite("Alerts and what a check observed")
struct AlertObservationTests {
    typealias F = ObservationFixtures

    static func advance(
        _ states: [FindingIdentity: AlertState], _ report: DomainReport
    ) -> AlertTransition {
        var counter = 0
        return AlertStateMachine.advance(
            states: states, check: AlertCheck(report: report), policy: AlertPolicy(failureThreshold: 1),
            now: report.checkedAt,
            makeID: {
                counter += 1
                return "evt_\(counter)"
            })
    }

    @Test("an origin that times out does not resolve an expect.url alert on the origin copy")
    func originTimeoutKeepsExpectation() {
        let expectations = Expectations(urls: [
            ExpectedURL(url: "https://shop.test/help", appID: F.app, decision: .match)
        ])
        let broken = F.evaluate(F.observation(), expectations: expectations)
        let fired = Self.advance([:], broken)
        // The CDN copy has the same meaning as the origin's: one problem, one alert, on the origin copy.
        #expect(fired.events.filter { $0.alert?.code == .expectURL }.map(\.alert?.source) == [.wellKnown])
        let timedOut = F.evaluate(F.observation(wellKnown: F.failure(.timeout)), expectations: expectations)
        let after = Self.advance(fired.states, timedOut)
        #expect(!after.events.contains { $0.type == .alertResolved && $0.alert?.code == .expectURL })
        #expect(after.states.keys.contains { $0.code == .expectURL && $0.source == .wellKnown })
    }

    @Test("a broken origin does not resolve cdn.stale: there is nothing to compare Apple's copy with")
    func brokenOriginKeepsStale() {
        let stale = F.evaluate(F.observation(cdn: F.json(F.olderDocument, headers: F.cdnHeaders)))
        let fired = Self.advance([:], stale)
        #expect(fired.events.contains { $0.alert?.code == .cdnStale && $0.type == .alertFiring })
        let broken = F.evaluate(F.observation(wellKnown: F.status(500), cdn: F.json(F.olderDocument)))
        let after = Self.advance(fired.states, broken)
        #expect(!after.events.contains { $0.type == .alertResolved && $0.alert?.code == .cdnStale })
    }

    @Test("a CDN that answers 503 does not resolve cdn.missing; a CDN serving the copy does")
    func unreachableCDNKeepsMissing() {
        let missing = F.evaluate(F.observation(cdn: F.status(404)))
        let fired = Self.advance([:], missing)
        #expect(fired.events.map(\.alert?.code).contains(.cdnMissing))
        let unreachable = F.evaluate(F.observation(cdn: F.status(503)))
        let during = Self.advance(fired.states, unreachable)
        #expect(!during.events.contains { $0.type == .alertResolved && $0.alert?.code == .cdnMissing })
        let back = Self.advance(during.states, F.evaluate(F.observation()))
        #expect(back.events.contains { $0.type == .alertResolved && $0.alert?.code == .cdnMissing })
    }
}

/// Apple's diagnosis of the origin (`origin.apple_failure`) is seen only through Apple's answer.
@Suite("Alerts on Apple's diagnosis")
struct AppleDiagnosisAlertTests {
    typealias F = ObservationFixtures

    static let apple403 = F.status(
        404, headers: [HeaderField(name: "Apple-Failure-Reason", value: "SWCERR00101 Bad HTTP Response: 403 Forbidden")]
    )

    @Test("a CDN answering 503, or not answering, holds origin.apple_failure; Apple serving the file resolves it")
    func cdnFailureHoldsDiagnosis() {
        let diagnosed = F.evaluate(F.observation(cdn: Self.apple403))
        let fired = AlertObservationTests.advance([:], diagnosed)
        #expect(fired.events.contains { $0.type == .alertFiring && $0.alert?.code == .originAppleFailure })
        for outage in [F.status(503), F.failure(.connect)] {
            let during = AlertObservationTests.advance(fired.states, F.evaluate(F.observation(cdn: outage)))
            #expect(during.events.isEmpty, "\(outage)")
            #expect(during.states.keys.contains { $0.code == .originAppleFailure }, "\(outage)")
        }
        let back = AlertObservationTests.advance(fired.states, F.evaluate(F.observation()))
        #expect(back.events.contains { $0.type == .alertResolved && $0.alert?.code == .originAppleFailure })
    }
}

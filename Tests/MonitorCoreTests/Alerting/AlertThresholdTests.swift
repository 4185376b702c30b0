import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Alert state machine: thresholds, reminders, resolves")
struct AlertThresholdTests {
    @Test(
        "an alert fires after failure_threshold consecutive failing checks, and a passing check resets the count",
        arguments: [
            (1, "FF.F", ["fire", "", "resolve", "fire"]),
            (2, "F.FF", ["", "", "", "fire"]),
            (2, "FFFF", ["", "fire", "", ""]),
            (3, "FF.FFF", ["", "", "", "", "", "fire"]),
        ])
    func failureThreshold(threshold: Int, pattern: String, expected: [String]) {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: threshold, flapLimit: 0))
        #expect(scenario.run(pattern) == expected)
    }

    @Test("with success_threshold 2 one passing check does not resolve, and a failure in between sends nothing")
    func successThreshold() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1, successThreshold: 2))
        #expect(scenario.run("F.F..") == ["fire", "", "", "", "resolve"])
        #expect(scenario.states.isEmpty == false)  // remembered for flap counting
        #expect(scenario.states.values.allSatisfy { !$0.isFiring })
    }

    @Test("a still-firing alert reminds every repeat_after, and repeat_after 0 never reminds")
    func reminders() {
        var hourly = AlertScenario(policy: AlertPolicy(failureThreshold: 1, repeatAfter: 3_600))
        #expect(hourly.run("FFFFFF", interval: 1_800) == ["fire", "", "remind", "", "remind", ""])
        #expect(hourly.events.map(\.isReminder) == [false, true, true])

        var never = AlertScenario(policy: AlertPolicy(failureThreshold: 1, repeatAfter: 0))
        #expect(never.run("FFFFFF", interval: 86_400) == ["fire", "", "", "", "", ""])
    }

    @Test("with send_resolved false the alert resolves silently and can fire again")
    func silentResolve() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1, sendResolved: false, flapLimit: 0))
        #expect(scenario.run("F.F") == ["fire", "", "fire"])
        #expect(scenario.states.count == 1)
    }

    @Test("a resolve event says what was resolved: code, source, last message and severity")
    func resolveCarriesTheAlert() throws {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        scenario.check([.redirect])
        let resolved = try #require(scenario.check([]).first)
        #expect(resolved.type == .alertResolved)
        let alert = try #require(resolved.alert)
        #expect(alert.code == .originRedirect)
        #expect(alert.source == .wellKnown)
        #expect(alert.severity == .error)
        #expect(alert.message == ReportFinding.redirect.message)
        #expect(resolved.id == "evt_2")
    }

    @Test("info findings never alert")
    func infoNeverAlerts() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        let signed = ReportFinding(code: .originSigned, severity: .info, source: .wellKnown, message: "signed")
        for _ in 0..<5 { scenario.check([signed, .stale(.info)]) }
        #expect(scenario.events.isEmpty)
        #expect(scenario.states.isEmpty)
    }

    @Test("two failing URLs are two alerts, and one of them resolving leaves the other firing")
    func twoURLsTwoAlerts() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        let first = ReportFinding.expectURL("https://example.com/a")
        let second = ReportFinding.expectURL("https://example.com/b")
        let fired = scenario.check([first, second])
        #expect(fired.map(\.alert?.subject) == ["https://example.com/a", "https://example.com/b"])
        let resolved = scenario.check([second])
        #expect(resolved.map(\.type) == [.alertResolved])
        #expect(resolved.map(\.alert?.subject) == ["https://example.com/a"])
        #expect(scenario.states[second.identity(domain: "example.com")]?.isFiring == true)
    }

    @Test("a check that did not observe the CDN neither resolves nor advances a cdn alert")
    func unobservedSourceKeepsItsState() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        scenario.check([.stale(.warning)])
        let identity = ReportFinding.stale(.warning).identity(domain: "example.com")
        let before = scenario.states[identity]
        #expect(scenario.check([], observed: [.wellKnown, .root]).isEmpty)
        #expect(scenario.states[identity] == before)
        #expect(scenario.check([], observed: [.wellKnown, .cdn]).map(\.type) == [.alertResolved])
    }

    @Test("states of other domains pass through a check untouched")
    func otherDomainsUntouched() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        scenario.check([.redirect])
        scenario.domain = "other.example"
        #expect(scenario.check([]).isEmpty)
        #expect(scenario.states.count == 1)
    }

    @Test("alert states survive a JSON round trip, as the store keeps them")
    func statesAreCodable() throws {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1, successThreshold: 3))
        scenario.check([.redirect, .stale(.warning)])
        scenario.check([.stale(.warning)])
        let states = Array(scenario.states.values)
        let data = try JSONEncoder().encode(states)
        #expect(try JSONDecoder().decode([AlertState].self, from: data) == states)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("passing_since"))
        #expect(text.contains("last_notified_at"))
    }
}

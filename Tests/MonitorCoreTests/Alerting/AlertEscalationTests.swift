import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Alert state machine: severity changes and flapping")
struct AlertEscalationTests {
    @Test("a cdn.stale warning that becomes an error notifies again with the new severity; a fall is silent")
    func escalation() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1, repeatAfter: 0))
        let summaries = [
            scenario.check([.stale(.warning)]), scenario.check([.stale(.warning)]), scenario.check([.stale(.error)]),
            scenario.check([.stale(.error)]), scenario.check([.stale(.warning)]), scenario.check([.stale(.error)]),
        ].map { $0.map(\.summary).joined(separator: "+") }
        #expect(summaries == ["fire(warning)", "", "fire", "", "", "fire"])
        #expect(scenario.events.allSatisfy { !$0.isReminder })
    }

    @Test("the most severe of two findings with one identity decides the alert's severity")
    func mostSevereWins() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        let events = scenario.check([.stale(.warning), .stale(.error)])
        #expect(events.map(\.alert?.severity) == [.error])
    }

    @Test("an alert that fires three times within an hour is held firing until it passes for an hour")
    func flappingIsDamped() {
        var scenario = AlertScenario(
            policy: AlertPolicy(failureThreshold: 1, flapWindow: 3_600, flapLimit: 3, flapStablePeriod: 3_600))
        // Alternating every 5 minutes for 2 hours: without damping that would be 24 events.
        let summaries = scenario.run(String(repeating: "F.", count: 12))
        #expect(summaries.filter { !$0.isEmpty } == ["fire", "resolve", "fire", "resolve", "fire"])
        #expect(scenario.events.last?.alert?.flapping == true)
        #expect(scenario.states.values.allSatisfy { $0.isFiring })

        // Stable for 55 minutes: still held. At an hour: resolved.
        #expect(scenario.run(String(repeating: ".", count: 11)).allSatisfy { $0.isEmpty })
        #expect(scenario.run(".") == ["resolve"])
    }

    @Test("firings spread wider than the flap window are not flapping")
    func slowCyclesAreNotFlapping() {
        var scenario = AlertScenario(
            policy: AlertPolicy(failureThreshold: 1, flapWindow: 3_600, flapLimit: 3, flapStablePeriod: 3_600))
        let summaries = scenario.run("F.F.F.F.", interval: 1_000)
        #expect(summaries == ["fire", "resolve", "fire", "resolve", "fire", "resolve", "fire", "resolve"])
        #expect(scenario.events.allSatisfy { $0.alert?.flapping == false })
    }

    @Test("event IDs come from the injected generator, one per event, in identity order")
    func eventIDsAreInjected() {
        var scenario = AlertScenario(policy: AlertPolicy(failureThreshold: 1))
        let events = scenario.check([.stale(.warning), .redirect])
        #expect(events.map(\.id) == ["evt_1", "evt_2"])
        #expect(events.map(\.alert?.code) == [.cdnStale, .originRedirect])
    }
}

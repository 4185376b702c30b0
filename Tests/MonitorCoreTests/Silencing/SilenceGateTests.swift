import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// A check after another through the alert state machine and then `SilenceGate`, with a clock moved by hand.
struct SilencedScenario {
    var alerts = AlertScenario(policy: AlertPolicy(failureThreshold: 1, repeatAfter: 3_600))
    var silences: [Silence] = []
    var sent: [String] = []

    /// One check, `F` failing or `.` passing, 300 s after the previous; returns what was sent.
    @discardableResult
    mutating func check(_ step: Character) -> String {
        let previous = alerts.states
        let events = alerts.check(step == "F" ? [.redirect] : [])
        var counter = 1000
        let gate = SilenceGate.apply(
            events: events, previous: previous, alerts: alerts.states, silences: silences, domain: alerts.domain,
            verdict: nil, now: alerts.now,
            makeID: {
                counter += 1
                return "evt_\(counter)"
            })
        alerts.states = gate.alerts
        let summary = gate.events.map(\.summary).joined(separator: "+")
        sent.append(summary)
        return summary
    }

    mutating func run(_ pattern: String) -> [String] { pattern.map { check($0) } }

    /// A silence of `alerts.domain` from `checks` checks from now for `length` checks (of 300 s).
    mutating func silence(startingIn checks: Double = 0, for length: Double, code: FindingCode? = nil) {
        let start = alerts.now.addingTimeInterval(checks * 300 + 1)
        silences.append(
            Silence(
                id: "1", domains: [alerts.domain], code: code, startsAt: start,
                endsAt: start.addingTimeInterval(length * 300), author: "alice", reason: "DNS migration"))
    }
}

@Suite("Silences: Alertmanager's semantics with a clock moved by hand")
struct SilenceGateTests {
    @Test("a domain broken during a silence sends nothing, then one alert.firing at the first check after it")
    func firingThroughSilence() {
        var scenario = SilencedScenario()
        scenario.silence(for: 3)
        #expect(scenario.run("FFFFF") == ["", "", "", "fire", ""])
        #expect(scenario.alerts.states.values.first?.firingAlert?.unsent == nil)
    }

    @Test("a break and recovery inside a silence send nothing, during it or after")
    func firedAndResolvedInside() {
        var scenario = SilencedScenario()
        scenario.silence(for: 3)
        #expect(scenario.run("FF.....") == ["", "", "", "", "", "", ""])
    }

    @Test("an alert that resolves at the very check the silence ends at is never sent")
    func resolvesAtTheEnd() {
        var scenario = SilencedScenario()
        scenario.silence(for: 2)
        #expect(scenario.run("FF.F") == ["", "", "", "fire"])
    }

    @Test("an alert told before a silence that resolves inside it sends its resolution (issue 35 item 3)")
    func toldBeforeResolvesInside() {
        var scenario = SilencedScenario()
        #expect(scenario.check("F") == "fire")
        scenario.silence(for: 6)
        #expect(scenario.run("FF.F") == ["", "", "resolve", ""])
        // The second firing inside the silence is new to receivers: it waits for the end, then goes once.
        #expect(scenario.run("FFF") == ["", "", "fire"])
    }

    @Test("an alert told before the silence is not sent again when it ends; its reminders are muted")
    func toldBefore() {
        var scenario = SilencedScenario()
        #expect(scenario.check("F") == "fire")
        scenario.silence(for: 14)
        // 15 checks of 300 s: the hourly reminder falls inside the silence and is dropped.
        let during = scenario.run("FFFFFFFFFFFFFF")
        #expect(during.allSatisfy { $0.isEmpty })
        #expect(scenario.check("F") == "")
        #expect(scenario.run(String(repeating: "F", count: 12)).contains("remind"))
    }

    @Test("a silence of another code mutes only that code")
    func otherCode() {
        var scenario = SilencedScenario()
        scenario.silence(for: 3, code: .cdnStale)
        #expect(scenario.run("F.") == ["fire", "resolve"])
    }

    @Test("a silence that starts later mutes nothing before it starts")
    func startsLater() {
        var scenario = SilencedScenario()
        scenario.silence(startingIn: 2, for: 2)
        #expect(scenario.run("F.F") == ["fire", "resolve", ""])
    }

    @Test("informational events are muted by a domain-wide silence, never by one of a code; monitor events never")
    func informational() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let silence = Silence(
            id: "1", domains: ["example.com"], startsAt: now, endsAt: now.addingTimeInterval(60), author: "a",
            reason: "r")
        let changed = MonitorEvent.cdnPropagated(
            id: "e", domain: "example.com", delaySeconds: 5, hash: "sha256:x", at: now)
        #expect(silence.mutes(changed))
        var coded = silence
        coded.code = .cdnStale
        #expect(!coded.mutes(changed))
        var all = silence
        all.domains = nil
        let monitor = MonitorEvent(
            id: "m", occurredAt: now, domain: "",
            payload: .monitorFiring(MonitorConditions.Condition(code: .monitorStore, since: now, message: "m")))
        #expect(!all.mutes(monitor))
        #expect(all.mutes(changed))
        #expect(!silence.isActive(at: now.addingTimeInterval(60)))
        #expect(silence.text == "silenced until 2027-01-15T08:01:00Z by a: r")
    }
}

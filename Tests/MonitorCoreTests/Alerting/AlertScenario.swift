import AASA
import Foundation
import MonitorCore
import MonitorEvaluation

/// Drives `AlertStateMachine` through a sequence of checks with an injected clock and counting event IDs.
struct AlertScenario {
    var policy: AlertPolicy
    var domain = "example.com"
    var states: [FindingIdentity: AlertState] = [:]
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var nextID = 0
    var events: [MonitorEvent] = []

    init(policy: AlertPolicy = AlertPolicy()) {
        self.policy = policy
    }

    /// One check with `findings`, `interval` seconds after the previous one; returns that check's events.
    @discardableResult
    mutating func check(
        _ findings: [ReportFinding], observed: Set<FindingSource> = Set(FindingSource.allCases),
        after interval: Double = 300
    ) -> [MonitorEvent] {
        now = now.addingTimeInterval(interval)
        var counter = nextID
        let transition = AlertStateMachine.advance(
            states: states, check: AlertCheck(domain: domain, findings: findings, observedSources: observed),
            policy: policy, now: now,
            makeID: {
                counter += 1
                return "evt_\(counter)"
            })
        nextID = counter
        states = transition.states
        events += transition.events
        return transition.events
    }

    /// Runs a string of checks: `F` failing with `finding`, `.` passing; returns one summary per check.
    mutating func run(_ pattern: String, finding: ReportFinding = .redirect, interval: Double = 300) -> [String] {
        pattern.map { step in
            let emitted = check(step == "F" ? [finding] : [], after: interval)
            return emitted.map(\.summary).joined(separator: "+")
        }
    }
}

extension MonitorEvent {
    /// `fire`, `fire(error)`, `remind`, `resolve`: what a receiver would notice.
    var summary: String {
        switch payload {
        case .alertFiring(_, reminder: true, _): "remind"
        case .alertFiring(let alert, _, _): alert.severity == .error ? "fire" : "fire(\(alert.severity.rawValue))"
        case .alertResolved: "resolve"
        default: type.rawValue
        }
    }

    /// A reminder of a still-firing alert.
    var isReminder: Bool {
        if case .alertFiring(_, reminder: true, _) = payload { true } else { false }
    }
}

extension ReportFinding {
    static let redirect = ReportFinding(
        code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects to https://www.example.com/",
        detail: ["status": 301, "location": "https://www.example.com/"])

    static func stale(_ severity: Severity) -> ReportFinding {
        ReportFinding(code: .cdnStale, severity: severity, source: .cdn, message: "Apple's copy is older")
    }

    static func expectURL(_ url: String) -> ReportFinding {
        ReportFinding(
            code: .expectURL, severity: .error, source: .wellKnown, message: "\(url) does not open the app",
            subject: url)
    }
}

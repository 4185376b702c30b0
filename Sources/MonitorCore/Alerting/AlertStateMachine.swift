import AASA
import Foundation
import MonitorEvaluation

/// What one check of one domain tells the alert state machine.
public struct AlertCheck: Sendable, Hashable {
    public var domain: String
    /// Every finding of the check; `info` findings count as passing.
    public var findings: [ReportFinding]
    /// The sources this check looked at. An alert on a source that was not observed keeps its state: a check
    /// that did not ask the CDN says nothing about a `cdn.*` alert.
    public var observedSources: Set<FindingSource>
    public var verdict: Verdict?

    public init(
        domain: String, findings: [ReportFinding], observedSources: Set<FindingSource>, verdict: Verdict? = nil
    ) {
        self.domain = domain
        self.findings = findings
        self.observedSources = observedSources
        self.verdict = verdict
    }

    /// The check behind `report`: `.well-known` is always observed, the root and the CDN when they were asked.
    public init(report: DomainReport) {
        var sources: Set<FindingSource> = [.wellKnown]
        if report.origin.root != nil { sources.insert(.root) }
        // An unreachable CDN (network, TLS, 5xx) says nothing about Apple's copy: its alerts neither advance nor
        // resolve, except `cdn.unreachable` itself, which is failing.
        if report.cdn != nil, !report.findings.contains(where: { $0.has(.cdnUnreachable) }) {
            sources.insert(.cdn)
        }
        self.init(
            domain: report.domain, findings: report.findings, observedSources: sources, verdict: report.verdict)
        // Problems of a file's content can only pass on a copy that was read.
        var documents: Set<FindingSource> = []
        if report.origin.wellKnown.canonicalHash != nil { documents.insert(.wellKnown) }
        if report.origin.root?.canonicalHash != nil { documents.insert(.root) }
        if report.cdn?.canonicalHash != nil { documents.insert(.cdn) }
        documentSources = documents
        // `cdn.stale` compares Apple's copy with a valid origin: without one, this check cannot say it is gone.
        if report.origin.wellKnown.canonicalHash == nil || report.verdict == .originBroken {
            unjudged.insert(.cdnStale)
        }
        // `origin.apple_failure` is Apple's view of the origin, read from Apple's answer: a check whose CDN failed
        // itself (5xx, no usable answer) or was not asked did not see it, whatever the origin answered us.
        if !sources.contains(.cdn) { unjudged.insert(.originAppleFailure) }
    }

    /// Codes this check could not judge although their source was observed: their alerts neither resolve nor fire.
    public var unjudged: Set<FindingCode> = []

    /// The sources whose document was read in this check; `nil` when the caller did not say (then every observed
    /// source counts as read).
    public var documentSources: Set<FindingSource>?

    /// Whether this check can say that the problem `identity` is gone: its source was observed and, for a problem
    /// of the file's content (`aasa.*`, `expect.*`, a BOM or content type), that copy was read. An origin that
    /// times out does not resolve an `expect.url` alert.
    public func observes(_ identity: FindingIdentity) -> Bool {
        guard observedSources.contains(identity.source), !unjudged.contains(identity.code) else { return false }
        // An unregistered code (from another version's history) concerns no content.
        guard let documentSources, identity.code.concernsContent else { return true }
        return documentSources.contains(identity.source)
    }
}

/// The alert states after a check, and the events to write to the outbox in the same transaction.
public struct AlertTransition: Sendable, Hashable {
    /// Every state passed in, advanced; ok alerts are absent.
    public var states: [FindingIdentity: AlertState]
    /// Sorted by identity, so the outbox order is stable.
    public var events: [MonitorEvent]
}

/// The pure alert lifecycle of issue 6: fed with each check's findings and the time, returns new states and events.
///
/// Severity changes: a rise while firing (a `cdn.stale` warning that outlived `stale_after` and became an error)
/// sends `alert.firing` with the new severity; a fall is recorded without a notification (the problem is still
/// there, and the next reminder carries the lower severity), so a later rise notifies again.
public enum AlertStateMachine {
    /// Advances every alert of `check.domain` by one check at `now`. States of other domains pass through unchanged.
    ///
    /// - Parameter makeID: makes each new event's ID (`{ EventID.make(at: now, using: &generator) }`).
    public static func advance(
        states: [FindingIdentity: AlertState],
        check: AlertCheck,
        policy: AlertPolicy,
        now: Date,
        makeID: () -> String
    ) -> AlertTransition {
        let failing = failingFindings(check)
        // A finding caused by another one is held: it neither fires (its cause alerts) nor resolves (it is there).
        let held = Set(
            check.findings.filter { $0.causedBy != nil && $0.severity > .info }.map {
                $0.identity(domain: check.domain)
            })
        var identities = Set(failing.keys)
        for identity in states.keys where identity.domain == check.domain { identities.insert(identity) }

        var newStates = states
        var events: [MonitorEvent] = []
        for identity in identities.sorted() {
            let current = states[identity]
            let step: Step
            if let finding = failing[identity] {
                step = fail(current, finding: finding, policy: policy, now: now)
            } else if held.contains(identity) {
                continue
            } else if check.observes(identity) {
                step = pass(current, policy: policy, now: now)
            } else {
                continue
            }
            newStates[identity] = step.state
            if let notice = step.notice {
                events.append(
                    notice.event(identity: identity, id: makeID(), at: now, verdict: check.verdict))
            }
        }
        return AlertTransition(states: newStates, events: events)
    }

    /// The most severe alerting (warning or error) finding per identity; caused findings do not alert on their own.
    private static func failingFindings(_ check: AlertCheck) -> [FindingIdentity: ReportFinding] {
        var result: [FindingIdentity: ReportFinding] = [:]
        for finding in check.findings where finding.severity > .info && finding.causedBy == nil {
            let identity = finding.identity(domain: check.domain)
            if let existing = result[identity], existing.severity >= finding.severity { continue }
            result[identity] = finding
        }
        return result
    }

    /// The next state and, when a receiver must hear of it, what to tell.
    struct Step {
        var state: AlertState?
        var notice: Notice?
    }

    private static func fail(_ current: AlertState?, finding: ReportFinding, policy: AlertPolicy, now: Date) -> Step {
        switch current {
        case nil:
            return startOrFire(failures: 1, since: now, recentFirings: [], finding: finding, policy: policy, now: now)
        case .resolved(_, let recentFirings):
            return startOrFire(
                failures: 1, since: now, recentFirings: recentFirings, finding: finding, policy: policy, now: now)
        case .pending(let pending):
            return startOrFire(
                failures: pending.failures + 1, since: pending.since, recentFirings: pending.recentFirings,
                finding: finding, policy: policy, now: now)
        case .firing(var alert), .resolving(var alert, _, _):
            let rose = finding.severity > alert.severity
            alert.severity = finding.severity
            alert.message = finding.message
            alert.detail = finding.detail
            let reminderDue =
                policy.repeatAfter > 0 && now.timeIntervalSince(alert.lastNotifiedAt) >= policy.repeatAfter
            guard rose || reminderDue else { return Step(state: .firing(alert: alert)) }
            alert.lastNotifiedAt = now
            return Step(state: .firing(alert: alert), notice: Notice(kind: .firing(reminder: !rose), alert: alert))
        }
    }

    private static func startOrFire(
        failures: Int, since: Date, recentFirings: [Date], finding: ReportFinding, policy: AlertPolicy, now: Date
    ) -> Step {
        let remembered = recent(recentFirings, policy: policy, now: now)
        guard failures >= policy.failureThreshold else {
            let pending = PendingAlert(failures: failures, since: since, recentFirings: remembered)
            return Step(state: .pending(alert: pending))
        }
        let firings = remembered + [now]
        let flapping = policy.flapLimit > 0 && firings.count >= policy.flapLimit
        let alert = FiringAlert(
            since: now, severity: finding.severity, lastNotifiedAt: now, message: finding.message,
            detail: finding.detail, recentFirings: firings, flapping: flapping,
            holdPeriod: flapping ? policy.flapStablePeriod : nil, flapWindow: flapping ? policy.flapWindow : nil)
        return Step(state: .firing(alert: alert), notice: Notice(kind: .firing(reminder: false), alert: alert))
    }

    private static func pass(_ current: AlertState?, policy: AlertPolicy, now: Date) -> Step {
        switch current {
        case nil:
            return Step(state: nil)
        case .resolved(let at, let recentFirings):
            return Step(state: quiet(at: at, recentFirings: recentFirings, policy: policy, now: now))
        case .pending(let pending):
            return Step(state: quiet(at: now, recentFirings: pending.recentFirings, policy: policy, now: now))
        case .firing(let alert):
            return resolveOrWait(alert, passes: 1, passingSince: now, policy: policy, now: now)
        case .resolving(let alert, let passes, let passingSince):
            return resolveOrWait(alert, passes: passes + 1, passingSince: passingSince, policy: policy, now: now)
        }
    }

    private static func resolveOrWait(
        _ alert: FiringAlert, passes: Int, passingSince: Date, policy: AlertPolicy, now: Date
    ) -> Step {
        var alert = alert
        // The hold in force is the policy's now (a reload may have changed it), which `status` shows.
        if alert.flapping { alert.holdPeriod = policy.flapStablePeriod }
        let enoughPasses = passes >= policy.successThreshold
        let stableLongEnough = !alert.flapping || now.timeIntervalSince(passingSince) >= policy.flapStablePeriod
        guard enoughPasses && stableLongEnough else {
            return Step(state: .resolving(alert: alert, passes: passes, passingSince: passingSince))
        }
        let state = quiet(at: now, recentFirings: alert.recentFirings, policy: policy, now: now)
        return Step(state: state, notice: policy.sendResolved ? Notice(kind: .resolved, alert: alert) : nil)
    }

    /// `resolved` while firings within the flap window are remembered, else ok (absent).
    private static func quiet(at: Date, recentFirings: [Date], policy: AlertPolicy, now: Date) -> AlertState? {
        let remembered = recent(recentFirings, policy: policy, now: now)
        return remembered.isEmpty ? nil : .resolved(at: at, recentFirings: remembered)
    }

    private static func recent(_ firings: [Date], policy: AlertPolicy, now: Date) -> [Date] {
        guard policy.flapLimit > 0 else { return [] }
        return firings.filter { now.timeIntervalSince($0) < policy.flapWindow }
    }
}

/// What a step tells a receiver, before it gets an ID and a time.
struct Notice {
    enum Kind {
        case firing(reminder: Bool)
        case resolved
    }

    var kind: Kind
    var alert: FiringAlert

    func event(identity: FindingIdentity, id: String, at time: Date, verdict: Verdict?) -> MonitorEvent {
        let told = MonitorEvent.Alert(
            code: identity.code, source: identity.source, subject: identity.subject, severity: alert.severity,
            message: alert.message, detail: alert.detail, verdict: verdict, flapping: alert.flapping)
        let payload: MonitorEvent.Payload
        switch kind {
        case .firing(let reminder): payload = .alertFiring(told, reminder: reminder, consequences: [])
        case .resolved: payload = .alertResolved(told)
        }
        return MonitorEvent(id: id, occurredAt: time, domain: identity.domain, payload: payload)
    }
}

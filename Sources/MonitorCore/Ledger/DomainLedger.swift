import AASA
import Foundation
import MonitorEvaluation

/// What the ledger applies besides the report: the alert policy and the webhooks of the configuration in force.
public struct LedgerPolicy: Sendable {
    public var alerts: AlertPolicy
    public var webhooks: [WebhookConfiguration]

    /// Sources whose domain alerts are held (neither fired nor resolved) while a condition of the monitor itself
    /// means they could not really be seen: the origins during `monitor.network`, Apple's CDN during
    /// `monitor.cdn_unreachable` (then a domain's failing CDN answer is not its own problem: `LoneCDNFailure`).
    public var heldSources: Set<FindingSource>

    /// The configuration's maintenance windows: each open one acts as a silence, beside the stored silences of
    /// the snapshot.
    public var maintenance: [MaintenanceWindow]

    /// How long Apple's CDN may fail for one domain alone before that alerts (`cdn.lone_failure_after`).
    public var loneCDNFailureAfter: TimeInterval

    public init(
        alerts: AlertPolicy, webhooks: [WebhookConfiguration], heldSources: Set<FindingSource> = [],
        maintenance: [MaintenanceWindow] = [], loneCDNFailureAfter: TimeInterval = LoneCDNFailure.alertsAfter
    ) {
        self.alerts = alerts
        self.webhooks = webhooks
        self.heldSources = heldSources
        self.maintenance = maintenance
        self.loneCDNFailureAfter = loneCDNFailureAfter
    }

    /// The default alert policy and no webhooks: alert states are kept (for `status`), nothing is sent.
    public static let quiet = LedgerPolicy(alerts: AlertPolicy(), webhooks: [])
}

/// Recording a check, as one pure function: snapshot and report in, everything to write out.
///
/// The path from a check to the outbox: the domain-state transition (verdict, propagation timeline, open
/// findings), the alert state machine, the informational events of the timeline (`origin.changed` with the
/// semantic diff, `cdn.propagated` with the delay), the fan-out of every event to the webhooks that want it, and
/// the history run the check extends or starts. No I/O and no clock: the time is the report's `checkedAt`, and
/// event ids come from `makeID`. The daemon builds the snapshot from its in-memory book (`DomainReducer.records`),
/// and the journal appends the outcome in one transaction, so an alert change and its deliveries are kept together
/// or not at all; the book takes the new entry only once that append committed.
public enum DomainLedger {
    /// The hash of the stored document the ledger will need as `previousOriginDocument`, if any: the previous
    /// origin meaning, when the report shows a different valid one.
    public static func documentNeeded(state: DomainState?, report: DomainReport) -> String? {
        guard let previous = state?.originHash, let current = report.originHash, previous != current else {
            return nil
        }
        return previous
    }

    public static func apply(
        _ snapshot: DomainSnapshot,
        report: DomainReport,
        policy: LedgerPolicy,
        makeID: () -> String
    ) -> LedgerOutcome {
        let now = report.checkedAt
        let report = LoneCDNFailure.promote(
            report, previous: snapshot.state?.openFindings, cdnHeld: policy.heldSources.contains(.cdn),
            after: policy.loneCDNFailureAfter, now: now)
        var (state, timeline) = DomainStateTransition.apply(previous: snapshot.state, report: report)
        var check = AlertCheck(report: report)
        if !policy.heldSources.isEmpty {
            check.observedSources.subtract(policy.heldSources)
            check.findings.removeAll { policy.heldSources.contains($0.source) }
            // Apple's copy cannot be compared with an origin that could not be seen.
            if policy.heldSources.contains(.wellKnown) { check.unjudged.insert(.cdnStale) }
        }
        let transition = AlertStateMachine.advance(
            states: snapshot.alerts, check: check, policy: policy.alerts, now: now, makeID: makeID)
        let silences = snapshot.silences + policy.maintenance.compactMap { $0.silence(at: now) }
        let gate = SilenceGate.apply(
            events: transition.events, previous: snapshot.alerts,
            alerts: transition.states.filter { $0.key.domain == report.domain }, silences: silences,
            domain: report.domain, verdict: report.verdict, now: now, makeID: makeID)
        let alerts = gate.alerts
        let informational = timelineEvents(timeline, snapshot: snapshot, report: report, makeID: makeID)
        let propagatedAfter = informational.lazy.compactMap { event -> Double? in
            guard case .cdnPropagated(let delay, _, _) = event.payload else { return nil }
            return delay
        }.first
        var events = annotate(
            gate.events, state: &state, alerts: alerts, report: report, propagatedAfter: propagatedAfter)
        events += informational.filter { event in !silences.contains { $0.isActive(at: now) && $0.mutes(event) } }
        let diff = informational.lazy.compactMap { event -> DocumentDiff? in
            guard case .originChanged(let diff, _) = event.payload else { return nil }
            return diff
        }.first
        timeline = timeline.map { entry in
            // `history` shows what changed beside the hashes: the first changes of the semantic diff.
            guard entry.kind == .originChanged, let diff else { return entry }
            var entry = entry
            entry.detail["changes"] = .array(diff.changes.prefix(5).map { .string($0.summary) })
            entry.detail["change_count"] = .int(diff.changes.count)
            return entry
        }
        // History tells what happened, silenced or not, and what of it was sent.
        timeline += alertTimeline(transition.events, sent: gate.events, alerts: alerts, silences: silences, now: now)
        return LedgerOutcome(
            state: state, alerts: alerts, alertsChanged: alerts != snapshot.alerts,
            run: runUpdate(snapshot.run, opensHistory: snapshot.state == nil, report: report), timeline: timeline,
            events: events,
            deliveries: deliveries(
                events, alerts: SilenceGate.told(alerts, silences: silences, now: now), report: report,
                webhooks: policy.webhooks, makeID: makeID),
            documents: report.documents)
    }

    /// Extends the open run when the outcome repeats it, else starts a new one holding the report once.
    /// `opensHistory`: the domain has no state yet, so this check is its first.
    static func runUpdate(_ run: RunMark?, opensHistory: Bool, report: DomainReport) -> RunUpdate {
        let key = RunKey.of(report)
        if let run, run.key == key { return .extend(run, lastSeen: report.checkedAt) }
        var stored = report.roundedToMilliseconds()
        stored.documents = [:]
        return .start(
            HistoryRun(
                domain: report.domain, firstSeen: report.checkedAt, lastSeen: report.checkedAt, checks: 1,
                verdict: report.verdict, originHash: report.originHash, cdnHash: report.cdnHash, key: key,
                report: stored, opensHistory: opensHistory))
    }

    /// `origin.changed` (with the semantic diff, when both meanings can be read) and `cdn.propagated` events for
    /// the timeline entries of this check.
    static func timelineEvents(
        _ timeline: [TimelineEvent], snapshot: DomainSnapshot, report: DomainReport, makeID: () -> String
    ) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for entry in timeline {
            switch entry.kind {
            case .originChanged:
                guard let to = entry.detail["to"]?.stringValue,
                    let before = snapshot.previousOriginDocument.flatMap(document),
                    let after = report.documents[to].flatMap(document)
                else { continue }
                events.append(
                    .originChanged(
                        id: makeID(), domain: report.domain, diff: AASADiff.compare(before, after),
                        verdict: report.verdict, at: entry.at))
            case .cdnPropagated:
                guard case .double(let delay)? = entry.detail["delay"], let hash = entry.detail["hash"]?.stringValue
                else { continue }
                events.append(
                    .cdnPropagated(
                        id: makeID(), domain: report.domain, delaySeconds: delay, hash: hash, verdict: report.verdict,
                        at: entry.at))
            default:
                continue
            }
        }
        return events
    }

    /// `history`'s record of the alerts that fired (or rose in severity) and resolved at this check, and of what
    /// receivers were told (`SilenceGate`, whose events are `sent`). An event not sent carries `sent: false`, and
    /// `silenced` (id, by, reason, until) when a silence held it; the firing a silence held, sent at the first
    /// check after it, is recorded at that check with `held_since`, when it fired. Reminders change nothing and are
    /// left out.
    static func alertTimeline(
        _ events: [MonitorEvent], sent: [MonitorEvent], alerts: [FindingIdentity: AlertState], silences: [Silence],
        now: Date
    ) -> [TimelineEvent] {
        let sentIDs = Set(sent.map(\.id))
        var timeline = events.compactMap { event -> TimelineEvent? in
            guard var entry = alertEntry(event) else { return nil }
            guard !sentIDs.contains(event.id) else { return entry }
            entry.detail["sent"] = .bool(false)
            // The silence that holds it longest, as `status` names it.
            if let silence = silences.filter({ $0.isActive(at: now) && $0.mutes(event) }).max(by: {
                $0.endsAt < $1.endsAt
            }) {
                entry.detail["silenced"] = .object([
                    "id": .string(silence.id), "by": .string(silence.author), "reason": .string(silence.reason),
                    "until": .time(silence.endsAt),
                ])
            }
            return entry
        }
        let happened = Set(events.map(\.id))
        for event in sent where !happened.contains(event.id) {
            guard var entry = alertEntry(event), entry.kind == .alertFiring, let identity = event.identity else {
                continue
            }
            entry.detail["held_since"] = .time(alerts[identity]?.firingAlert?.since)
            timeline.append(entry)
        }
        return timeline
    }

    /// The timeline entry of an alert event: `alert.firing` (not a reminder) or `alert.resolved`.
    private static func alertEntry(_ event: MonitorEvent) -> TimelineEvent? {
        let kind: TimelineEvent.Kind
        let alert: MonitorEvent.Alert
        switch event.payload {
        case .alertFiring(let fired, reminder: false, _): (kind, alert) = (.alertFiring, fired)
        case .alertResolved(let resolved): (kind, alert) = (.alertResolved, resolved)
        default: return nil
        }
        var detail: FindingDetail = [
            "code": .string(alert.code.id), "severity": .string(alert.severity.rawValue),
            "source": .string(alert.source.rawValue),
        ]
        if !alert.subject.isEmpty { detail["subject"] = .string(alert.subject) }
        if alert.flapping { detail["flapping"] = .bool(true) }
        return TimelineEvent(at: event.occurredAt, kind: kind, detail: detail)
    }

    private static func document(_ canonicalText: String) -> AASADocument? {
        AASAParser.parse(Array(canonicalText.utf8)).document
    }
}

import AASA
import Foundation
import MonitorEvaluation

/// What one check may send while silences are in force: Alertmanager's semantics, as a pure function.
///
/// - During a silence nothing muted is sent, but the alert state machine has already run as usual: an alert that
///   fires is kept firing and marked `unsent` (no receiver was told).
/// - At the first check after the silence ends, every alert still firing and `unsent` is sent once as
///   `alert.firing` (not a reminder), and reminders count from then.
/// - An `unsent` alert that resolves is never sent: it fired and resolved inside the silence, or resolved at the
///   very check the silence ended at; receivers never heard of it.
/// - An alert told before the silence keeps its state; its reminders and escalations during the silence are
///   dropped (as Alertmanager drops notifications for silenced alerts), but its `alert.resolved` is sent: receivers
///   that were told it fires would otherwise keep an open incident forever (Alertmanager's users ask for exactly
///   this).
///
/// The end is seen at the domain's next check, since a check is the only moment the daemon sends anything about a
/// domain: a silence that expires sends its catch-up within one interval.
public enum SilenceGate {
    /// The events to send and the alert states to keep.
    public struct Outcome: Sendable, Hashable {
        public var events: [MonitorEvent]
        public var alerts: [FindingIdentity: AlertState]
    }

    /// Passes one check's events of `domain` through `silences` at `now`.
    ///
    /// - Parameters:
    ///   - events: what the alert state machine and the timeline produced, in order.
    ///   - previous: the domain's alert states before the check (to recognise an `unsent` alert resolving).
    ///   - alerts: the domain's alert states after the check.
    ///   - makeID: makes the id of each catch-up `alert.firing`.
    public static func apply(
        events: [MonitorEvent], previous: [FindingIdentity: AlertState], alerts: [FindingIdentity: AlertState],
        silences: [Silence], domain: String, verdict: Verdict?, now: Date, makeID: () -> String
    ) -> Outcome {
        let active = silences.filter { $0.isActive(at: now) && $0.covers(domain: domain) }
        var alerts = alerts
        var kept: [MonitorEvent] = []
        for event in events {
            let muted = active.contains { $0.mutes(event) }
            guard let identity = event.identity else {
                if !muted { kept.append(event) }
                continue
            }
            let before = previous[identity]?.firingAlert
            let told = before.map { $0.unsent != true } ?? false
            if muted {
                // The end of an alert receivers were told of is sent anyway: they must be able to close it.
                if event.type == .alertResolved, told {
                    kept.append(event)
                    continue
                }
                // A new firing (not an escalation or reminder of one already told) waits for the silence's end.
                if event.type == .alertFiring, !told { alerts[identity] = alerts[identity]?.markingUnsent(true) }
                continue
            }
            // Unmuted, about an alert no receiver heard of: a resolution is never sent, a firing is the catch-up's.
            if before?.unsent == true { continue }
            kept.append(event)
        }
        for (identity, state) in alerts.sorted(by: { $0.key < $1.key }) {
            guard identity.domain == domain, var alert = state.firingAlert, alert.unsent == true,
                !active.contains(where: { $0.mutes(identity) })
            else { continue }
            alert.unsent = nil
            alert.lastNotifiedAt = now
            alerts[identity] = state.replacing(alert)
            let told = MonitorEvent.Alert(
                code: identity.code, source: identity.source, subject: identity.subject, severity: alert.severity,
                message: alert.message, detail: alert.detail, verdict: verdict, flapping: alert.flapping)
            kept.append(
                MonitorEvent(
                    id: makeID(), occurredAt: now, domain: identity.domain,
                    payload: .alertFiring(told, reminder: false, consequences: [])))
        }
        return Outcome(events: kept, alerts: alerts)
    }

    /// The alerts a receiver may be told are still failing (chat digests): told, and not muted at `now`.
    public static func told(
        _ alerts: [FindingIdentity: AlertState], silences: [Silence], now: Date
    ) -> [FindingIdentity: AlertState] {
        let active = silences.filter { $0.isActive(at: now) }
        return alerts.filter { identity, state in
            state.firingAlert?.unsent != true && !active.contains { $0.mutes(identity) }
        }
    }
}

extension AlertState {
    /// The alert a receiver sees as firing (`firing` or `resolving`), if any.
    public var firingAlert: FiringAlert? {
        switch self {
        case .firing(let alert), .resolving(let alert, _, _): alert
        case .pending, .resolved: nil
        }
    }

    /// The same state around `alert`; other states are returned unchanged.
    func replacing(_ alert: FiringAlert) -> AlertState {
        switch self {
        case .firing: .firing(alert: alert)
        case .resolving(_, let passes, let passingSince):
            .resolving(alert: alert, passes: passes, passingSince: passingSince)
        case .pending, .resolved: self
        }
    }

    func markingUnsent(_ unsent: Bool) -> AlertState {
        guard var alert = firingAlert else { return self }
        alert.unsent = unsent ? true : nil
        return replacing(alert)
    }
}

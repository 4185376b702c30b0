import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// Builds `status` and `history` from the state database; works whether the daemon runs or not.
package struct StatusReader: Sendable {
    /// The daemon beats every 5 s; nine missed beats mean it is not running (a busy check can delay one beat).
    package static let heartbeatBound: TimeInterval = 45

    package var store: StoreReader
    /// Whether a pid exists on this host; replaceable in tests.
    var processExists: @Sendable (Int32) -> Bool = LocalHost.processExists
    var hostName: String = LocalHost.name

    package init(store: StoreReader) {
        self.store = store
    }

    /// The state at `now` of every domain, or of the named ones (unknown names are left out).
    ///
    /// `silences` adds silences the database does not hold (the configuration's maintenance windows).
    package func snapshot(
        now: Date, domains: [String]? = nil, silences extra: [Silence] = []
    ) async throws
        -> StatusSnapshot
    {
        let states = try await store.domainStates(domains: domains)
        // A few domains' alerts (and the monitor's own, domain "") by key, as their states are read.
        let keyed = domains.flatMap { $0.count <= StoreReader.keyedReads ? $0 + [""] : nil }
        let rows: [StoredAlertState]
        if let keyed {
            rows = try await store.alertStates(domains: keyed)
        } else {
            rows = try await store.alertStates()
        }
        let alerts = Dictionary(grouping: rows, by: \.identity.domain)
        let silences = try await store.silences(at: now) + extra
        return StatusSnapshot(
            daemon: daemonStatus(try await store.heartbeat(), now: now),
            domains: states.map {
                domainStatus($0, alerts: alerts[$0.domain] ?? [], silences: silences, now: now)
            },
            outbox: OutboxStatus(
                counts: try await store.outboxCounts(), nextAttempt: try await store.nextAttemptTime(),
                failingWebhooks: try await store.failingWebhooks()),
            monitor: (alerts[""] ?? []).map(alertStatus))
    }

    /// The newest `limit` timeline events of `domain`, oldest first.
    package func history(domain: String, limit: Int = 1000) async throws -> HistoryReport {
        HistoryReport(
            domain: domain, events: try await store.history(domain: domain, limit: limit),
            runs: try await store.runs(domain: domain, limit: 20))
    }

    package func daemonStatus(_ heartbeat: Heartbeat?, now: Date) -> DaemonStatus {
        guard let heartbeat else {
            return DaemonStatus(
                running: false, pid: nil, host: nil, version: nil, startedAt: nil, heartbeat: nil, heartbeatAge: nil)
        }
        let age = now.timeIntervalSince(heartbeat.beatAt)
        let processAlive = heartbeat.host != hostName || processExists(heartbeat.pid)
        return DaemonStatus(
            running: age <= Self.heartbeatBound && processAlive, pid: heartbeat.pid, host: heartbeat.host,
            version: heartbeat.version, startedAt: heartbeat.startedAt, heartbeat: heartbeat.beatAt,
            heartbeatAge: age)
    }

    /// The domain as `status` shows it at `now`: each alert with every silence in force that mutes it, and the
    /// domain with the silence over everything about it (one without a code), if any.
    package func domainStatus(
        _ state: DomainState, alerts: [StoredAlertState], silences: [Silence] = [], now: Date = Date()
    )
        -> DomainStatus
    {
        let active = silences.filter { $0.isActive(at: now) && $0.covers(domain: state.domain) }
        let wholeDomain = active.filter { $0.code == nil }.max { $0.endsAt < $1.endsAt }
        return DomainStatus(
            domain: state.domain, verdict: state.verdict, since: state.verdictSince, lastCheck: state.lastCheck,
            lastDuration: state.lastDuration,
            findings: FindingStatus.causesFirst(
                state.openFindings.map { finding in
                    FindingStatus(
                        code: finding.key.code, severity: finding.severity, source: finding.key.source,
                        subject: finding.key.subject, message: finding.message, since: finding.since,
                        causedBy: finding.causedBy)
                }),
            cdn: CDNStatus(
                inSync: state.cdnInSync, staleSince: state.staleSince, missingSince: state.missingSince,
                expectedRefresh: state.expectedRefresh,
                lastPropagationDelay: state.lastPropagationDelay,
                propagationPendingSince: state.pendingPropagation?.changedAt, copyHash: state.cdnHash,
                lastAnswer: state.lastCDNCheck),
            certificate: CertificateStatus(notAfter: state.certificateNotAfter),
            alerts: alerts.map { alert in
                var status = alertStatus(alert)
                status.silencedBy = active.filter { $0.mutes(alert.identity) }.sorted { $0.endsAt > $1.endsAt }
                    .map { SilenceStatus($0, now: now) }
                return status
            },
            silenced: wholeDomain.map { SilenceStatus($0, now: now) })
    }

    func alertStatus(_ alert: StoredAlertState) -> AlertStatus {
        AlertStateSummary.decode(alert.stateJSON).status(of: alert.identity)
    }
}

/// What `status` shows of a stored alert state: its name, since when, and whether it is held open by flapping. A
/// state this version cannot read shows as an alert of unknown state rather than failing `status`.
package struct AlertStateSummary {
    var state: String?
    var since: Date?
    /// The firing alert behind a `firing` or `resolving` state.
    var firing: FiringAlert?
    var passingSince: Date?

    package static func decode(_ data: Data) -> AlertStateSummary {
        guard let state = try? StoreCoding.decode(AlertState.self, from: data, legacy: MonitorJSON.decoder()) else {
            return AlertStateSummary(state: nil, since: nil)
        }
        switch state {
        case .pending(let alert):
            return AlertStateSummary(state: state.name, since: alert.since)
        case .firing(let alert):
            return AlertStateSummary(state: state.name, since: alert.since, firing: alert)
        case .resolving(let alert, _, let passingSince):
            return AlertStateSummary(state: state.name, since: alert.since, firing: alert, passingSince: passingSince)
        case .resolved(let at, _):
            return AlertStateSummary(state: state.name, since: at)
        }
    }

    package func status(of identity: FindingIdentity) -> AlertStatus {
        let flapping = firing?.flapping ?? false
        return AlertStatus(
            code: identity.code, source: identity.source, subject: identity.subject, state: state, since: since,
            flapping: flapping, passingSince: passingSince,
            heldUntil: passingSince.flatMap { firing?.heldUntil(passingSince: $0) },
            flapHold: firing.flatMap { alert in
                alert.flapping
                    ? AlertStatus.FlapHold(
                        firings: alert.recentFirings.count, window: alert.flapWindow, hold: alert.holdPeriod) : nil
            })
    }
}

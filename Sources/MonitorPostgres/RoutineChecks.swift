import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
import PostgresNIO

/// The leased checks of a batch that only repeat their domain's outcome: no new run, no timeline event, no post,
/// no condition change — nearly every check of a healthy fleet. They are written by one statement whose `WHERE`
/// is their fence (owner and epoch), instead of a savepoint, a locked read and an update each: the rows it does
/// not return were claimed by another daemon since, and are answered `.fenced`. (Measured at 100,000 domains on
/// two nodes: the per-record statements were most of the cluster's cost above a daemon of its own.)
struct RoutineChecks: Sendable {
    /// Where each routine append stands in its batch, in the order of the arrays below.
    private(set) var indices: [Int] = []
    private var domains: [String] = []
    private var epochs: [Int64] = []
    private var nextIns: [Double] = []
    private var states: [ByteBuffer] = []
    private var alerts: [ByteBuffer] = []
    private var runKeys: [String] = []
    private var originHashes: [String] = []
    private var cdnHashes: [String] = []
    private var verdicts: [String] = []
    private var runIDs: [Int64] = []
    private var lastSeens: [Date] = []
    private var runs: [String: RunMark] = [:]

    var isEmpty: Bool { indices.isEmpty }

    /// Takes `append` when it is routine; `false` leaves it to the general path.
    mutating func add(_ append: JournalAppend, at index: Int) -> Bool {
        guard append.conditions == nil, append.conditionDeliveries.isEmpty, let fence = append.fence,
            let check = append.check, check.outcome.deliveries.isEmpty, check.outcome.timeline.isEmpty,
            case .extend(let mark, let lastSeen) = check.outcome.run,
            !domains.contains(check.report.domain),
            let columns = try? EntryColumns(check.outcome, run: mark)
        else { return false }
        indices.append(index)
        domains.append(check.report.domain)
        epochs.append(fence.lease.epoch)
        nextIns.append(fence.nextCheckIn)
        states.append(columns.state)
        alerts.append(columns.alerts)
        runKeys.append(columns.runKey)
        originHashes.append(columns.originHash)
        cdnHashes.append(columns.cdnHash)
        verdicts.append(check.outcome.state.verdict.rawValue)
        runIDs.append(mark.id)
        lastSeens.append(lastSeen)
        runs[check.report.domain] = mark
        return true
    }

    /// The statement: each row updated only while this node's lease of that epoch holds.
    func update(node: String) -> PostgresQuery {
        """
        UPDATE domains AS d
        SET next_due = now() + make_interval(secs => u.next_in), owner = NULL, lease_until = NULL,
            checked_by = \(node), checked_at = now(), entry = NULL, state = u.state,
            alerts = nullif(u.alerts, ''::bytea), run_key = u.run_key, origin_hash = nullif(u.origin, ''),
            cdn_hash = nullif(u.cdn, ''), verdict = u.verdict, run_id = u.run_id, run_last_seen = u.last_seen,
            run_checks = coalesce(d.run_checks, 0) + 1, changed = nextval('changes'), changed_at = clock_timestamp()
        FROM unnest(\(domains)::text[], \(epochs)::bigint[], \(nextIns)::float8[], \(states)::bytea[],
                    \(alerts)::bytea[], \(runKeys)::text[], \(originHashes)::text[], \(cdnHashes)::text[],
                    \(verdicts)::text[], \(runIDs)::bigint[], \(lastSeens)::timestamptz[])
             AS u(domain, epoch, next_in, state, alerts, run_key, origin, cdn, verdict, run_id, last_seen)
        WHERE d.domain = u.domain AND d.owner = \(node) AND d.epoch = u.epoch
        RETURNING d.domain
        """
    }

    /// One result per append of the batch (`count`): the routine ones written or fenced, the others `.fenced`
    /// until the general path answers them.
    func results(written rows: [PostgresRow], count: Int) throws -> [JournalResult] {
        var kept: Set<String> = []
        for row in rows { kept.insert(try row.decode(String.self)) }
        var results = [JournalResult](repeating: .fenced, count: count)
        for (position, index) in indices.enumerated() where kept.contains(domains[position]) {
            results[index] = .committed(runs[domains[position]])
        }
        return results
    }
}

import Foundation
import MonitorEvaluation

/// One domain's page of the daemon's book: everything its next check reads, in memory between checks.
///
/// The daemon is the only writer of its state, so it keeps this for every domain it watches, loads it from the
/// store once at start, and replaces it only after the journal committed what replaced it. A check's evaluation
/// and its ledger read this same value; nothing reads the store to learn what the previous check left.
public struct BookEntry: Sendable, Hashable, Codable {
    /// The domain's state after its last recorded check; `nil` before the first.
    public var state: DomainState?
    /// The domain's alert states (ok alerts are absent).
    public var alerts: [FindingIdentity: AlertState]
    /// The history run the last check belongs to; `nil` before the first check, and for a run the journal has not
    /// yet given a row id.
    public var run: RunMark?

    public init(state: DomainState? = nil, alerts: [FindingIdentity: AlertState] = [:], run: RunMark? = nil) {
        self.state = state
        self.alerts = alerts
        self.run = run
    }

    /// What the evaluation carries over from the previous check: since when Apple's copy has been stale, and when
    /// this monitor saw the origin change.
    public var evaluationContext: EvaluationContext {
        EvaluationContext(
            staleSince: state?.cdnInSync == false ? state?.staleSince : nil, originSince: state?.originChangedAt)
    }

    /// The entry once the journal committed `outcome`, whose history run got the row `run`.
    public init(committed outcome: LedgerOutcome, run: RunMark) {
        self.init(state: outcome.state, alerts: outcome.alerts, run: run)
    }
}

import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

/// The reducer step by step, with a clock moved by hand: what each check of a table leaves in the book entry.
@Suite("domain reducer")
struct DomainReducerTests {
    struct Row: Sendable, CustomStringConvertible {
        var outcome: ReducerSimulation.Outcome
        /// Seconds after the previous check.
        var after: Double
        var verdict: Verdict
        /// Whether the check starts a new history run (else it extends the open one).
        var startsRun: Bool
        var firing: Int
        var description: String { "\(outcome) +\(Int(after)) s" }
    }

    /// A domain that breaks, stays broken, recovers, then lags behind Apple's copy: threshold 2.
    static let table: [Row] = [
        Row(outcome: .healthy, after: 0, verdict: .ready, startsRun: true, firing: 0),
        Row(outcome: .healthy, after: 60, verdict: .ready, startsRun: false, firing: 0),
        Row(outcome: .originNotFound, after: 60, verdict: .originBroken, startsRun: true, firing: 0),
        Row(outcome: .originNotFound, after: 60, verdict: .originBroken, startsRun: false, firing: 1),
        Row(outcome: .healthy, after: 60, verdict: .ready, startsRun: true, firing: 0),
        Row(outcome: .cdnMissing, after: 60, verdict: .cdnMissing, startsRun: true, firing: 0),
    ]

    @Test("each check of the table leaves the verdict, run and alerts the book expects")
    func table() {
        var simulation = ReducerSimulation()
        var ids = 0
        let policy = LedgerPolicy(alerts: AlertPolicy(failureThreshold: 2), webhooks: [])
        for row in Self.table {
            simulation.now = simulation.now.addingTimeInterval(row.after)
            simulation.check(row.outcome, policy: policy, committing: true, ids: &ids)
            let commit = simulation.commits.last!
            #expect(commit.ledger.state.verdict == row.verdict, "\(row)")
            if case .start = commit.ledger.run {
                #expect(row.startsRun, "\(row)")
            } else {
                #expect(!row.startsRun, "\(row)")
            }
            let firing = simulation.entry?.alerts.values.filter { $0.firingAlert != nil }.count ?? 0
            #expect(firing == row.firing, "\(row)")
            #expect(simulation.entry?.state?.lastCheck == simulation.now.addingTimeInterval(0.5), "\(row)")
        }
    }

    @Test("evaluation and ledger read the same entry: Apple's copy stale since the first check that saw it")
    func staleSinceCarriedOver() {
        var simulation = ReducerSimulation()
        var ids = 0
        let policy = LedgerPolicy.quiet
        simulation.check(.olderOrigin, policy: policy, committing: true, ids: &ids)
        let first = simulation.entry?.state?.staleSince
        #expect(first != nil)
        simulation.now = simulation.now.addingTimeInterval(3_600)
        simulation.check(.olderOrigin, policy: policy, committing: true, ids: &ids)
        #expect(simulation.entry?.state?.staleSince == first)
        #expect(simulation.entry?.evaluationContext.staleSince == first)
    }

    @Test("the previous origin document is asked for only when the origin's meaning changed")
    func documentNeededOnlyOnChange() {
        var simulation = ReducerSimulation()
        var ids = 0
        simulation.check(.healthy, policy: .quiet, committing: true, ids: &ids)
        let same = DomainReducer.report(
            of: ReducerSimulation.observation(.healthy, at: simulation.now), entry: simulation.entry,
            expectations: Expectations(), settings: EvaluationSettings())
        #expect(DomainReducer.documentNeeded(entry: simulation.entry, report: same) == nil)
        let changed = DomainReducer.report(
            of: ReducerSimulation.observation(.olderOrigin, at: simulation.now), entry: simulation.entry,
            expectations: Expectations(), settings: EvaluationSettings())
        #expect(
            DomainReducer.documentNeeded(entry: simulation.entry, report: changed)
                == simulation.entry?.state?.originHash)
    }
}

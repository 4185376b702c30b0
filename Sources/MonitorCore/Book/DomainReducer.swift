import Foundation
import MonitorEvaluation

/// Recording one check against the book, as pure functions: the entry and an observation in; the report, the
/// records for the journal and the entry that replaces the old one once they are committed, out.
///
/// Two steps, because one input can be missing from memory: when the origin's meaning changed, the diff of
/// `origin.changed` needs the previous meaning's canonical text, which the book does not hold (at 100,000 domains a
/// copy of every document would be most of the daemon's memory). The caller reads it from the store between the
/// steps, only then (`documentNeeded`).
public enum DomainReducer {
    /// The report of `observation`, judged with what `entry` carries over (stale since, origin changed at).
    public static func report(
        of observation: DomainObservation, entry: BookEntry?, expectations: Expectations,
        settings: EvaluationSettings, memo: LintMemo? = nil
    ) -> DomainReport {
        DomainEvaluator.evaluate(
            observation, expectations: expectations, settings: settings,
            context: entry?.evaluationContext ?? EvaluationContext(), now: observation.finishedAt, memo: memo)
    }

    /// The hash of the stored document `records` needs as `previousOriginDocument`, if any.
    public static func documentNeeded(entry: BookEntry?, report: DomainReport) -> String? {
        DomainLedger.documentNeeded(state: entry?.state, report: report)
    }

    /// What recording `report` changes: the new state and alert states, the history run, the timeline and the
    /// deliveries, for the journal to commit in one transaction. `silences` are the stored silences covering the
    /// domain (the configuration's windows come with `policy`); the time is the report's.
    public static func records(
        of report: DomainReport, entry: BookEntry?, policy: LedgerPolicy, silences: [Silence],
        previousOriginDocument: String?, makeID: () -> String
    ) -> LedgerOutcome {
        let snapshot = DomainSnapshot(
            state: entry?.state, alerts: entry?.alerts ?? [:], run: entry?.run,
            previousOriginDocument: previousOriginDocument,
            silences: silences.filter { $0.covers(domain: report.domain) && $0.endsAt > report.checkedAt })
        return DomainLedger.apply(snapshot, report: report, policy: policy, makeID: makeID)
    }
}

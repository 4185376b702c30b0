import Foundation
import HTTPEngine

/// One scheduled check of one domain: probe, evaluate with what the store knew, record in one transaction.
struct CheckPipeline: Sendable {
    /// What the scheduler hands over: the domain and everything its check needs, captured at start, so a reload
    /// during the check cannot mix two configurations.
    struct Job: Sendable {
        var domain: String
        var expectations: Expectations
        var probe: ProbeSettings
        var evaluation: EvaluationSettings
        var previous: DomainSummary?
        var ledger: LedgerPolicy
    }

    /// What a finished check produced.
    struct Outcome: Sendable {
        var report: DomainReport
        var ledger: LedgerOutcome
    }

    let engine: CurlEngine
    let store: MonitorStore
    let clock: @Sendable () -> Date
    /// Bodies linted before, across domains and checks: an unchanged file is not parsed and linted again.
    let memo = LintMemo()

    /// Runs `job`. Network problems are findings, never errors; a failing store write throws, and so does a check
    /// that failed while this process lacked descriptors or memory (`LocalResources.Fault`): nothing of it is kept.
    func run(_ job: Job) async throws -> Outcome {
        let probe = DomainProbe(engine: engine, settings: job.probe)
        let observation = await probe.observe(domain: job.domain, now: clock)
        try Task.checkCancellation()
        if let fault = LocalResources.fault(after: observation) { throw fault }
        let context = EvaluationContext(
            staleSince: job.previous?.cdnInSync == false ? job.previous?.staleSince : nil,
            originSince: job.previous?.originChangedAt)
        let report = DomainEvaluator.evaluate(
            observation, expectations: job.expectations, settings: job.evaluation, context: context,
            now: observation.finishedAt, memo: memo)
        let outcome = try await store.record(report: report, policy: job.ledger)
        return Outcome(report: report, ledger: outcome)
    }
}

import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorEvaluation

/// One check of one domain, in parallel with the others: probe, report, reduce against the book entry the job
/// carries. It appends nothing: the core accepts the result, judges it under the held sources then in force and
/// journals it in sequence order.
struct CheckRun: Sendable {
    let engine: CurlEngine
    let journal: any Journal
    /// Bodies linted before, across domains and checks: an unchanged file is not parsed and linted again.
    let memo: LintMemo
    let clock: @Sendable () -> Date

    /// Runs `job` with `settings`. Network problems are findings, never failures; a check during which this
    /// process lacked descriptors or memory is reported as such (`LocalResources`), and nothing of it is kept.
    func run(_ job: DaemonCore.Job, settings: ProbeSettings) async -> DaemonCore.CheckResult {
        let probe = DomainProbe(engine: engine, settings: settings)
        let observation = await probe.observe(domain: job.domain, now: clock)
        if Task.isCancelled { return .abandoned }
        let failedFetch = LocalResources.hasFailedFetch(observation)
        if failedFetch, let fault = LocalResources.probe() {
            LocalResources.noteFault(at: clock())
            return .resourceShortage(reason: fault.reason)
        }
        let report = DomainReducer.report(
            of: observation, entry: job.entry, expectations: job.expectations, settings: job.evaluation, memo: memo)
        // The one read of a check, and only when the origin's meaning changed: the previous text for the diff.
        var previous: String?
        if let hash = DomainReducer.documentNeeded(entry: job.entry, report: report) {
            do {
                previous = try await journal.document(hash: hash)
            } catch {
                return .failed(reason: "the previous origin document could not be read: \(error)")
            }
        }
        var generator = SystemRandomNumberGenerator()
        let outcome = DomainReducer.records(
            of: report, entry: job.entry, policy: job.ledger, silences: job.silences, previousOriginDocument: previous,
            makeID: { EventID.make(at: report.checkedAt, using: &generator) })
        return .reported(
            DaemonCore.Reported(
                report: report, outcome: outcome, previousOriginDocument: previous, failedFetch: failedFetch,
                lastShortage: LocalResources.lastShortage))
    }
}

import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorStore

/// One scheduled check of one domain, in one direction: probe, reduce against the book entry the job carries,
/// append the records to the journal. The caller then hands the committed entry back to the runtime.
struct CheckPipeline: Sendable {
    /// What the scheduler hands over: the domain, its book entry and everything its check needs, captured at start,
    /// so a reload during the check cannot mix two configurations. A domain has one check at a time, so the entry
    /// is still the book's when the check ends.
    struct Job: Sendable {
        var domain: String
        var expectations: Expectations
        var probe: ProbeSettings
        var evaluation: EvaluationSettings
        var ledger: LedgerPolicy
        var entry: BookEntry?
        /// The stored silences not yet ended (the reducer keeps those covering the domain).
        var silences: [Silence]
        /// How many domains are configured (the monitor's network rule counts them).
        var domainCount: Int
    }

    /// What a finished, committed check produced.
    struct Outcome: Sendable {
        var report: DomainReport
        var ledger: LedgerOutcome
        /// The book's new entry for the domain.
        var entry: BookEntry
        /// The monitor's condition events journaled with the check.
        var conditionEvents: [MonitorEvent]
        /// Whether the append queued deliveries.
        var queued: Bool
    }

    let engine: CurlEngine
    let store: MonitorStore
    let conditions: ConditionBook
    let clock: @Sendable () -> Date
    /// Bodies linted before, across domains and checks: an unchanged file is not parsed and linted again.
    let memo = LintMemo()

    /// Runs `job`. Network problems are findings, never errors; a failing journal append throws, and so does a check
    /// that failed while this process lacked descriptors or memory (`LocalResources.Fault`): nothing of it is kept.
    func run(_ job: Job) async throws -> Outcome {
        let probe = DomainProbe(engine: engine, settings: job.probe)
        let observation = await probe.observe(domain: job.domain, now: clock)
        try Task.checkCancellation()
        if let fault = LocalResources.fault(after: observation) { throw fault }
        let report = DomainReducer.report(
            of: observation, entry: job.entry, expectations: job.expectations, settings: job.evaluation, memo: memo)
        // The one read of a check, and only when the origin's meaning changed: the previous text for the diff.
        let previous = try await store.reader.previousOriginDocument(entry: job.entry, report: report)
        var generator = SystemRandomNumberGenerator()
        let makeID = { EventID.make(at: report.checkedAt, using: &generator) }
        let ledger = DomainReducer.records(
            of: report, entry: job.entry, policy: job.ledger, silences: job.silences, previousOriginDocument: previous,
            makeID: makeID)
        let changes = conditions.record(report, domains: job.domainCount, now: report.checkedAt)
        let conditionRecords = changes.map {
            ConditionLedger.records(of: $0.transitions, webhooks: job.ledger.webhooks, makeID: makeID)
        }
        let append = JournalAppend(
            check: (report, ledger), conditions: changes?.active,
            conditionDeliveries: conditionRecords?.deliveries ?? [], at: report.checkedAt)
        let run: RunMark?
        do {
            run = try await store.append(append)
        } catch {
            if let changes { conditions.journalFailed(changes) }
            throw error
        }
        guard let run else { throw CancellationError() }
        return Outcome(
            report: report, ledger: ledger, entry: BookEntry(committed: ledger, run: run),
            conditionEvents: conditionRecords?.events ?? [], queued: append.hasDeliveries)
    }

    /// Journals changes of the monitor's conditions that no check carries (a fault of this process or the store);
    /// returns their events, or `nil` when the append failed (they then ride the next append).
    func journal(_ changes: ConditionBook.Changes, webhooks: [WebhookConfiguration]) async -> [MonitorEvent]? {
        let now = clock()
        var generator = SystemRandomNumberGenerator()
        let records = ConditionLedger.records(
            of: changes.transitions, webhooks: webhooks, makeID: { EventID.make(at: now, using: &generator) })
        do {
            try await store.append(
                JournalAppend(conditions: changes.active, conditionDeliveries: records.deliveries, at: now))
            return records.events
        } catch {
            conditions.journalFailed(changes)
            return nil
        }
    }
}

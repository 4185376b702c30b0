import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// The journal: the store's only write path for checks. It writes what the reducer produced and reads nothing.
///
/// The daemon's core batches appends itself (`Journal.append(_:)` with many); this one writes one append in its own
/// transaction and returns once its records are durable. A failed append throws and keeps nothing of it.
extension MonitorStore {
    /// Writes `records` in one transaction; returns the history run its check extended or started (`nil` without
    /// a check).
    @discardableResult
    package func append(_ records: JournalAppend) async throws -> RunMark? {
        try await writer.write { db in try Self.apply(records, db) }
    }

    /// Records one check of a store used without the daemon's book (tests, benchmarks, tools): reads the domain's
    /// entry and unended silences, reduces, and appends. The daemon does not call this; it keeps the book itself.
    @discardableResult
    package func record(report: DomainReport, policy: LedgerPolicy = .quiet) async throws -> LedgerOutcome {
        let entry = try await reader.entry(of: report.domain)
        let silences = try await reader.silences(at: report.checkedAt)
        let previous = try await reader.previousOriginDocument(entry: entry, report: report)
        var generator = SystemRandomNumberGenerator()
        let outcome = DomainReducer.records(
            of: report, entry: entry, policy: policy, silences: silences, previousOriginDocument: previous,
            makeID: { EventID.make(at: report.checkedAt, using: &generator) })
        try await append(JournalAppend(check: (report, outcome), at: report.checkedAt))
        return outcome
    }

    /// The outbox rows of `deliveries`, due at once.
    static func outboxInserts(_ deliveries: [LedgerDelivery], at time: Date) throws -> [OutboxInsert] {
        try deliveries.map { delivery in
            OutboxInsert(
                deliveryID: delivery.deliveryID, eventID: delivery.event.id, webhook: delivery.webhook,
                eventJSON: try MonitorJSON.encoder().encode(delivery.event), createdAt: time, nextAttemptAt: time)
        }
    }
}

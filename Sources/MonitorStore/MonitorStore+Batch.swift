import Foundation
import GRDB
import MonitorCore

/// The SQLite journal as the daemon's core drives it: the core hands over one batch at a time, in sequence order,
/// so batching is the caller's and this is one transaction with a savepoint per append.
///
/// Every commit is durable (`synchronous=FULL`): `append` returns once the batch is on disk, so an outbox row
/// reported as written survives a crash.
extension MonitorStore: Journal {
    package func append(_ appends: [JournalAppend]) async throws -> [JournalResult] {
        try await writer.write { db -> [JournalResult] in
            appends.map { append in
                var run: RunMark?
                do {
                    try db.inSavepoint {
                        run = try Self.apply(append, db)
                        return .commit
                    }
                } catch {
                    return .failed(reason: "\(error)")
                }
                return .committed(run)
            }
        }
    }

    /// Writes one append's records: the condition set it replaces, its condition deliveries, and its check.
    static func apply(_ append: JournalAppend, _ db: Database) throws -> RunMark? {
        if let conditions = append.conditions { try writeConditions(db, active: conditions) }
        try insertDeliveries(db, outboxInserts(append.conditionDeliveries, at: append.at))
        guard let check = append.check else { return nil }
        return try write(db, outcome: check.outcome, report: check.report)
    }

    package func book(domains: [String]) async throws -> [String: BookEntry] {
        try await reader.book(domains: domains)
    }

    package func document(hash: String) async throws -> String? {
        try await reader.document(hash: hash)
    }

    package func silences(at now: Date) async throws -> [Silence] {
        try await reader.silences(at: now)
    }
}

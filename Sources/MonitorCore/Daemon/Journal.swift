import Foundation

/// What the daemon needs of a store: its one write path and the reads of start-up, reload and a check. SQLite
/// implements it today (`MonitorStore`); another backend implements the same promises.
package protocol Journal: Sendable {
    /// Commits `appends` in order, in one transaction: an append that cannot be written fails alone and the others
    /// commit (SQLite gives each a savepoint; PostgreSQL writes the batch again one append at a time when the server
    /// refuses a record). Returns one result per append, once it is durable; throws when the transaction itself
    /// failed, and then nothing of it was kept — except, on PostgreSQL, appends written one at a time before the
    /// failure, which a leased check's retry finds fenced (its lease ended with that commit).
    func append(_ appends: [JournalAppend]) async throws -> [JournalResult]

    /// The committed entries of `domains` (those with none are absent).
    func book(domains: [String]) async throws -> [String: BookEntry]

    /// The monitor's own conditions as the last committed append left them.
    func activeConditions() async throws -> [MonitorConditions.Condition]

    /// The canonical text of an origin document by its hash (`DomainReducer.documentNeeded`), if kept.
    func document(hash: String) async throws -> String?

    /// The stored silences not yet ended at `now`.
    func silences(at now: Date) async throws -> [Silence]
}

/// What became of one append of a batch.
package enum JournalResult: Sendable {
    /// Written; the history run its check extended or started (`nil` without a check).
    case committed(RunMark?)
    /// Not written; the reason in words, for the log.
    case failed(reason: String)
    /// Not written: another daemon has claimed the check's domain since its lease (`JournalAppend.fence`); nothing
    /// of the check may be kept or alerted. Only a cluster's journal answers it.
    case fenced
}

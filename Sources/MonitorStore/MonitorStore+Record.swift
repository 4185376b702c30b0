import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// The statements of a journal append (`MonitorStore.append`), each run inside its one transaction.
extension MonitorStore {
    /// Each meaning once: a document already stored only gets its `last_seen` moved.
    static func insertDocuments(_ db: Database, _ documents: [String: String], seenAt: Date) throws {
        for (hash, text) in documents.sorted(by: { $0.key < $1.key }) {
            try db.cachedStatement(
                sql: """
                    INSERT INTO documents (hash, canonical_text, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
                    ON CONFLICT (hash) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)
                    """
            ).execute(
                arguments: [StoredHex.documentHash.value(hash), text, StoredInstant(seenAt)])
        }
    }

    /// Writes what the ledger decided: documents, the run, the state, the timeline, alert states and deliveries.
    ///
    /// Documents are written only when a run starts: a repeated outcome has the same meanings, which its open run
    /// (or the domain's state) already references, and retention never removes a referenced document.
    /// Returns the history run the check extended or started, with its row id.
    static func write(_ db: Database, outcome: LedgerOutcome, report: DomainReport) throws -> RunMark {
        let checkedAt = report.checkedAt
        if case .start = outcome.run { try insertDocuments(db, outcome.documents, seenAt: checkedAt) }
        let run: RunMark
        // The open run's checks after this one; nil: one more than the state row holds.
        let runChecks: Int?
        let runLastSeen: Date
        switch outcome.run {
        case .extend(let open, let lastSeen):
            // Only the state row moves (`StoreSchema.keepOpenRunInState`): the run's own row waits for its end.
            run = open
            runChecks = nil
            runLastSeen = lastSeen
        case .start(let new):
            // The run that ends gets its figures from the state row, before that row moves to the new run (no
            // UPDATE … FROM: it needs SQLite 3.33, and the package asks only for what its symbols need).
            try db.cachedStatement(
                sql: """
                    UPDATE runs SET last_seen = (SELECT run_last_seen FROM domain_state WHERE domain = ?1),
                      checks = (SELECT run_checks FROM domain_state WHERE domain = ?1)
                    WHERE id = (SELECT run_id FROM domain_state WHERE domain = ?1 AND run_checks IS NOT NULL)
                    """
            ).execute(arguments: [new.domain])
            try db.cachedStatement(
                sql: """
                    INSERT INTO runs (domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key,
                      report_json, opens_history)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    new.domain, StoredInstant(new.firstSeen), StoredInstant(new.lastSeen), new.checks,
                    new.verdict.rawValue,
                    StoredHex.documentHash.value(new.originHash), StoredHex.documentHash.value(new.cdnHash),
                    StoredHex.runKey.value(new.key), try StoreCoding.encode(new.report), new.opensHistory,
                ])
            run = RunMark(id: db.lastInsertedRowID, key: new.key)
            runChecks = new.checks
            runLastSeen = new.lastSeen
        }
        let state = outcome.state
        // The open run (started or extended by this report) holds the report's hashes and keeps their documents from
        // retention; the state's own copies are written only when they differ (the last valid origin meaning while
        // the origin is broken).
        let originHash = state.originHash == report.originHash ? nil : state.originHash
        let cdnHash = state.cdnHash == report.cdnHash ? nil : state.cdnHash
        let storedState = try StoreCoding.encode(state)
        // An upsert updates the row in place; REPLACE would delete and re-insert it, moving its rowid and index entry.
        try db.cachedStatement(
            sql: """
                INSERT INTO domain_state (domain, state_json, origin_hash, cdn_hash, run_id, run_last_seen, run_checks)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, coalesce(?7, 1))
                ON CONFLICT (domain) DO UPDATE SET state_json = ?2, origin_hash = ?3, cdn_hash = ?4, run_id = ?5,
                  run_last_seen = ?6, run_checks = coalesce(?7, domain_state.run_checks + 1)
                """
        ).execute(
            arguments: [
                state.domain, storedState, StoredHex.documentHash.value(originHash),
                StoredHex.documentHash.value(cdnHash), run.id, StoredInstant(runLastSeen), runChecks,
            ])
        // The domain's first run stands for its first events (`FirstRunEvents`); `history` reads them from it.
        for event in FirstRunEvents.stored(outcome.timeline, run: outcome.run) {
            try db.cachedStatement(sql: "INSERT INTO timeline (domain, at, kind, detail_json) VALUES (?, ?, ?, ?)")
                .execute(arguments: [
                    state.domain, StoredInstant(event.at), event.kind.rawValue, try StoreCoding.encode(event.detail),
                ])
        }
        if outcome.alertsChanged {
            try writeAlerts(db, domain: state.domain, alerts: outcome.alerts)
        }
        try insertDeliveries(db, outboxInserts(outcome.deliveries, at: checkedAt))
        return run
    }

    /// Replaces the domain's alert states with `alerts`.
    static func writeAlerts(_ db: Database, domain: String, alerts: [FindingIdentity: AlertState]) throws {
        try db.cachedStatement(sql: "DELETE FROM alert_state WHERE domain = ?").execute(arguments: [domain])
        for (identity, state) in alerts.sorted(by: { $0.key < $1.key }) {
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO alert_state (domain, code, source, subject, state_json)
                    VALUES (?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    identity.domain, identity.code.id, identity.source.rawValue, identity.subject,
                    try StoreCoding.encode(state),
                ])
        }
    }

    /// Inserts deliveries, ignoring any whose delivery id is already in the outbox; returns how many were new.
    @discardableResult
    static func insertDeliveries(_ db: Database, _ inserts: [OutboxInsert]) throws -> Int {
        var inserted = 0
        for insert in inserts {
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO outbox (delivery_id, event_id, webhook, event_json, state, attempts,
                      next_attempt_at, created_at)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    """
            ).execute(
                arguments: [
                    insert.deliveryID, insert.eventID, insert.webhook, insert.eventJSON, OutboxState.pending,
                    StoredInstant(insert.nextAttemptAt), StoredInstant(insert.createdAt),
                ])
            inserted += db.changesCount
        }
        return inserted
    }
}

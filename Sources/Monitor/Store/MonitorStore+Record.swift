import AASA
import Foundation
import GRDB
import MonitorCore

/// The statements of `MonitorStore.record`, each run inside its one transaction.
extension MonitorStore {
    static func domainState(_ db: Database, domain: String, path: String) throws -> DomainState? {
        guard
            let data = try Data.fetchOne(
                db, sql: "SELECT state_json FROM domain_state WHERE domain = ?", arguments: [domain])
        else { return nil }
        return try StoreReader.decode(DomainState.self, data, what: "state of \(domain)", path: path)
    }

    /// Each meaning once: a document already stored only gets its `last_seen` moved.
    static func insertDocuments(_ db: Database, _ documents: [String: String], seenAt: Date) throws {
        for (hash, text) in documents.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: """
                    INSERT INTO documents (hash, canonical_text, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
                    ON CONFLICT (hash) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)
                    """,
                arguments: [hash, text, seenAt])
        }
    }

    /// The check row; the report is kept as JSON without its documents, which live in `documents` by hash.
    static func insertCheck(_ db: Database, report: DomainReport) throws -> Int64 {
        var stored = report
        stored.documents = [:]
        try db.execute(
            sql: """
                INSERT INTO checks (domain, checked_at, duration, verdict, origin_hash, cdn_hash, report_json)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                report.domain, report.checkedAt, report.durationSeconds, report.verdict.rawValue, report.originHash,
                report.cdnHash, try StoreCoding.encode(stored),
            ])
        return db.lastInsertedRowID
    }

    static func insertFindings(_ db: Database, _ findings: [ReportFinding], checkID: Int64) throws {
        for finding in findings {
            try db.execute(
                sql: """
                    INSERT INTO findings (check_id, code, severity, source, subject, message, detail_json)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    checkID, finding.code, finding.severity.rawValue, finding.source.rawValue, finding.subject,
                    finding.message, try StoreCoding.encode(finding.detail),
                ])
        }
    }

    /// Replaces the domain's alert states with what `update` returns and enqueues its deliveries.
    static func updateAlerts(
        _ db: Database, domain: String, timeline: [TimelineEvent], with update: AlertUpdater
    ) throws {
        let current = try StoreReader.alertStates(db, domain: domain)
        let input = AlertUpdateInput(
            alertStates: Dictionary(current.map { ($0.identity, $0.stateJSON) }, uniquingKeysWith: { a, _ in a }),
            timeline: timeline,
            document: { hash in
                try String.fetchOne(db, sql: "SELECT canonical_text FROM documents WHERE hash = ?", arguments: [hash])
            })
        let result = try update(input)
        try db.execute(sql: "DELETE FROM alert_state WHERE domain = ?", arguments: [domain])
        for (identity, json) in result.newAlertStates.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO alert_state (domain, code, source, subject, state_json)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [identity.domain, identity.code, identity.source.rawValue, identity.subject, json])
        }
        try insertDeliveries(db, result.outboxEvents)
    }

    /// Inserts deliveries, ignoring any whose delivery id is already in the outbox; returns how many were new.
    @discardableResult
    static func insertDeliveries(_ db: Database, _ inserts: [OutboxInsert]) throws -> Int {
        var inserted = 0
        for insert in inserts {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO outbox (delivery_id, event_id, webhook, event_json, state, attempts,
                      next_attempt_at, created_at)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    """,
                arguments: [
                    insert.deliveryID, insert.eventID, insert.webhook, insert.eventJSON, OutboxState.pending,
                    insert.nextAttemptAt,
                    insert.createdAt,
                ])
            inserted += db.changesCount
        }
        return inserted
    }
}

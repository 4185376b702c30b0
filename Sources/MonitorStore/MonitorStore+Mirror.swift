import AASA
import Foundation
import GRDB
import MonitorCore
import MonitorEvaluation

/// A cluster node's copy of the shared history (`ClusterChanges`): written into the node's own database in the
/// schema of a daemon of its own, so `status`, the pages, the API and the badges read the whole fleet with the
/// same readers. Copying a row again changes nothing (rows keep the cluster's ids).
extension MonitorStore {
    /// Writes `changes`; returns the domains whose entry could not be decoded (left as they were, not blocking the
    /// others).
    @discardableResult
    package func mirror(_ changes: ClusterChanges) async throws -> [String] {
        guard !changes.isEmpty else { return [] }
        return try await writer.write { db -> [String] in
            var unreadable: [String] = []
            for document in changes.documents {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO documents (hash, canonical_text, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4)
                        ON CONFLICT (hash) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)
                        """
                ).execute(
                    arguments: [
                        StoredHex.documentHash.value(document.hash), document.text, StoredInstant(document.firstSeen),
                        StoredInstant(document.lastSeen),
                    ])
            }
            for run in changes.runs {
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO runs (id, domain, first_seen, last_seen, checks, verdict, origin_hash,
                          cdn_hash, key, report_json, opens_history)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(
                    arguments: [
                        run.id, run.domain, StoredInstant(run.firstSeen), StoredInstant(run.lastSeen), run.checks,
                        run.verdict, StoredHex.documentHash.value(run.originHash),
                        StoredHex.documentHash.value(run.cdnHash), StoredHex.runKey.value(run.key), run.report,
                        run.opensHistory,
                    ])
            }
            for row in changes.domains {
                guard let copy = DomainCopy(row) else {
                    unreadable.append(row.domain)
                    continue
                }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO domain_state (domain, state_json, origin_hash, cdn_hash, run_id, run_last_seen,
                          run_checks)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                        ON CONFLICT (domain) DO UPDATE SET state_json = ?2, origin_hash = ?3, cdn_hash = ?4,
                          run_id = ?5, run_last_seen = ?6, run_checks = ?7
                        """
                ).execute(
                    arguments: [
                        row.domain, copy.state, StoredHex.documentHash.value(copy.originHash),
                        StoredHex.documentHash.value(copy.cdnHash), copy.runID,
                        row.runLastSeen.map { StoredInstant($0) }, row.runChecks,
                    ])
                try Self.writeAlerts(db, domain: row.domain, alerts: copy.alerts)
            }
            for event in changes.timeline {
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO timeline (id, domain, at, kind, detail_json) VALUES (?, ?, ?, ?, ?)"
                ).execute(arguments: [event.id, event.domain, StoredInstant(event.at), event.kind, event.detail])
            }
            guard let silences = changes.silences else { return unreadable }
            try db.execute(sql: "DELETE FROM silences")
            for silence in silences {
                guard let id = Int64(silence.id) else { continue }
                let domains = try silence.domains.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try db.execute(
                    sql: """
                        INSERT INTO silences (id, domains_json, code, starts_at, ends_at, author, reason, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, domains, silence.code?.id, StoredInstant(silence.startsAt), StoredInstant(silence.endsAt),
                        silence.author, silence.reason, StoredInstant(silence.startsAt),
                    ])
            }
            return unreadable
        }
    }
}

/// A domain's row as the copy writes it: the state's bytes as the cluster stored them (checked to be a value
/// `StoreCoding` can open, not decoded), alert states decoded only when there are any.
private struct DomainCopy {
    var state: Data
    var originHash: String?
    var cdnHash: String?
    var runID: Int64?
    var alerts: [FindingIdentity: AlertState]

    /// `nil` when the stored values cannot be read (or the entry has no state yet).
    init?(_ row: MirroredDomain) {
        switch row.stored {
        case .columns(let state, let alerts, let originHash, let cdnHash, let runID):
            var decoded: [FindingIdentity: AlertState] = [:]
            if let alerts {
                guard let read = try? StoreCoding.decode([FindingIdentity: AlertState].self, from: alerts) else {
                    return nil
                }
                decoded = read
            }
            guard (try? StoreCoding.json(of: state)) != nil else { return nil }
            self.state = state
            self.originHash = originHash
            self.cdnHash = cdnHash
            self.runID = runID
            self.alerts = decoded
        case .entry(let data):
            guard let entry = try? StoreCoding.decode(BookEntry.self, from: data), let state = entry.state,
                let coded = try? StoreCoding.encode(state)
            else { return nil }
            self.state = coded
            self.originHash = state.originHash
            self.cdnHash = state.cdnHash
            self.runID = entry.run?.id
            self.alerts = entry.alerts
        }
    }
}

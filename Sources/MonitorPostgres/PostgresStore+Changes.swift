import Foundation
import MonitorCore
import MonitorStore
import PostgresNIO

/// What changed in the cluster's history since a node last copied it (`ClusterMirror`): rows by their number in
/// the `changes` sequence, each table from its own cursor.
///
/// A number is taken when a row is written but seen only when its transaction commits, so a row with a lower
/// number can appear after a higher one was read. A cursor therefore moves only past rows written more than
/// `settle` seconds ago (every call has a deadline of a few seconds, so no transaction stays open that long); the
/// newer ones are read again next time. A row read again whose number is in `seen` (already copied) comes without
/// its entry, report or text and is left out of the answer: at 100,000 domains every row was otherwise sent about
/// five times to every node.
extension PostgresStore {
    /// How long after a row was written its number is trusted to be final.
    package static let settle: Double = 10

    package func changes(
        after cursor: ChangeCursor, seen: SeenChanges = SeenChanges(), limit: Int
    ) async throws(PostgresStoreError) -> ClusterChanges {
        var changes = ClusterChanges(next: cursor)
        let settle = Self.settle
        /// Rows each table gave, copied or not: as many as asked means more are waiting.
        var read: [Int] = []
        do {
            // A cursor moves past the settled rows before the first unsettled one only.
            read.append(0)
            var settling = true
            for row in try await rows(
                "reading changed domains",
                """
                SELECT domain, copied, CASE WHEN NOT copied THEN state END, CASE WHEN NOT copied THEN alerts END,
                       origin_hash, cdn_hash, run_id, CASE WHEN NOT copied THEN entry END, run_last_seen, run_checks,
                       changed, changed_at < now() - make_interval(secs => \(settle))
                FROM (SELECT *, changed = ANY(\(Array(seen.domains))::bigint[]) AS copied FROM domains
                      WHERE changed > \(cursor.domains) AND (state IS NOT NULL OR entry IS NOT NULL)
                      ORDER BY changed LIMIT \(limit)) AS d
                ORDER BY changed
                """)
            {
                read[read.count - 1] += 1
                let (domain, copied, state, alerts, origin, cdn, runID, legacy, lastSeen, checks, changed, settled) =
                    try row.decode(
                        (String, Bool, Data?, Data?, String?, String?, Int64?, Data?, Date?, Int?, Int64, Bool).self)
                let stored: MirroredDomain.Stored? =
                    if let state {
                        .columns(state: state, alerts: alerts, originHash: origin, cdnHash: cdn, runID: runID)
                    } else {
                        legacy.map { .entry($0) }
                    }
                if !copied, let stored {
                    var mirrored = MirroredDomain(
                        domain: domain, stored: stored, runLastSeen: lastSeen, runChecks: checks)
                    mirrored.changed = changed
                    changes.domains.append(mirrored)
                }
                if settled, settling { changes.next.domains = changed } else { settling = false }
            }
            read.append(0)
            settling = true
            for row in try await rows(
                "reading changed runs",
                """
                SELECT id, domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key,
                       CASE WHEN changed = ANY(\(Array(seen.runs))::bigint[]) THEN NULL ELSE report END,
                       opens_history, changed, changed_at < now() - make_interval(secs => \(settle))
                FROM runs WHERE changed > \(cursor.runs) ORDER BY changed LIMIT \(limit)
                """)
            {
                read[read.count - 1] += 1
                let (id, domain, first, last, checks, verdict, origin, cdn, key, report, opens, changed, settled) =
                    try row.decode(
                        (Int64, String, Date, Date, Int, String, String?, String?, String, Data?, Bool, Int64, Bool)
                            .self)
                defer { if settled, settling { changes.next.runs = changed } else { settling = false } }
                guard let report else { continue }
                var mirrored = MirroredRun(
                    id: id, domain: domain, firstSeen: first, lastSeen: last, checks: checks, verdict: verdict,
                    originHash: origin, cdnHash: cdn, key: key, report: report, opensHistory: opens)
                mirrored.changed = changed
                changes.runs.append(mirrored)
            }
            read.append(0)
            settling = true
            for row in try await rows(
                "reading changed documents",
                """
                SELECT hash, CASE WHEN changed = ANY(\(Array(seen.documents))::bigint[]) THEN NULL ELSE canonical_text END,
                       first_seen, last_seen, changed,
                       changed_at < now() - make_interval(secs => \(settle))
                FROM documents WHERE changed > \(cursor.documents) ORDER BY changed LIMIT \(limit)
                """)
            {
                read[read.count - 1] += 1
                let (hash, text, first, last, changed, settled) = try row.decode(
                    (String, String?, Date, Date, Int64, Bool).self)
                defer { if settled, settling { changes.next.documents = changed } else { settling = false } }
                guard let text else { continue }
                var mirrored = MirroredDocument(hash: hash, text: text, firstSeen: first, lastSeen: last)
                mirrored.changed = changed
                changes.documents.append(mirrored)
            }
            read.append(0)
            settling = true
            for row in try await rows(
                "reading changed timelines",
                """
                SELECT id, domain, at, kind,
                       CASE WHEN changed = ANY(\(Array(seen.timeline))::bigint[]) THEN NULL ELSE detail END,
                       changed, changed_at < now() - make_interval(secs => \(settle))
                FROM timeline WHERE changed > \(cursor.timeline) ORDER BY changed LIMIT \(limit)
                """)
            {
                read[read.count - 1] += 1
                let (id, domain, at, kind, detail, changed, settled) = try row.decode(
                    (Int64, String, Date, String, Data?, Int64, Bool).self)
                defer { if settled, settling { changes.next.timeline = changed } else { settling = false } }
                guard let detail else { continue }
                var mirrored = MirroredTimelineEvent(id: id, domain: domain, at: at, kind: kind, detail: detail)
                mirrored.changed = changed
                changes.timeline.append(mirrored)
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw .describing(error, while: "reading the cluster's changes")
        }
        changes.silences = try await silences(at: .distantPast)
        changes.full = read.contains(limit)
        return changes
    }
}

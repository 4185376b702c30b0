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
/// newer ones are read again next time, and copying a row twice changes nothing.
extension PostgresStore {
    /// How long after a row was written its number is trusted to be final.
    package static let settle: Double = 10

    package func changes(after cursor: ChangeCursor, limit: Int) async throws(PostgresStoreError) -> ClusterChanges {
        var changes = ClusterChanges(next: cursor)
        let settle = Self.settle
        do {
            // A cursor moves past the settled rows before the first unsettled one only.
            var settling = true
            for row in try await rows(
                "reading changed domains",
                """
                SELECT domain, entry, run_last_seen, run_checks, changed, changed_at < now() - make_interval(secs => \(settle))
                FROM domains WHERE changed > \(cursor.domains) AND entry IS NOT NULL ORDER BY changed LIMIT \(limit)
                """)
            {
                let (domain, entry, lastSeen, checks, changed, settled) = try row.decode(
                    (String, Data, Date?, Int?, Int64, Bool).self)
                var mirrored = MirroredDomain(domain: domain, entry: entry, runLastSeen: lastSeen, runChecks: checks)
                mirrored.changed = changed
                changes.domains.append(mirrored)
                if settled, settling { changes.next.domains = changed } else { settling = false }
            }
            settling = true
            for row in try await rows(
                "reading changed runs",
                """
                SELECT id, domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key, report,
                       opens_history, changed, changed_at < now() - make_interval(secs => \(settle))
                FROM runs WHERE changed > \(cursor.runs) ORDER BY changed LIMIT \(limit)
                """)
            {
                let (id, domain, first, last, checks, verdict, origin, cdn, key, report, opens, changed, settled) =
                    try row.decode(
                        (Int64, String, Date, Date, Int, String, String?, String?, String, Data, Bool, Int64, Bool)
                            .self)
                var mirrored = MirroredRun(
                    id: id, domain: domain, firstSeen: first, lastSeen: last, checks: checks, verdict: verdict,
                    originHash: origin, cdnHash: cdn, key: key, report: report, opensHistory: opens)
                mirrored.changed = changed
                changes.runs.append(mirrored)
                if settled, settling { changes.next.runs = changed } else { settling = false }
            }
            settling = true
            for row in try await rows(
                "reading changed documents",
                """
                SELECT hash, canonical_text, first_seen, last_seen, changed,
                       changed_at < now() - make_interval(secs => \(settle))
                FROM documents WHERE changed > \(cursor.documents) ORDER BY changed LIMIT \(limit)
                """)
            {
                let (hash, text, first, last, changed, settled) = try row.decode(
                    (String, String, Date, Date, Int64, Bool).self)
                var mirrored = MirroredDocument(hash: hash, text: text, firstSeen: first, lastSeen: last)
                mirrored.changed = changed
                changes.documents.append(mirrored)
                if settled, settling { changes.next.documents = changed } else { settling = false }
            }
            settling = true
            for row in try await rows(
                "reading changed timelines",
                """
                SELECT id, domain, at, kind, detail, changed, changed_at < now() - make_interval(secs => \(settle))
                FROM timeline WHERE changed > \(cursor.timeline) ORDER BY changed LIMIT \(limit)
                """)
            {
                let (id, domain, at, kind, detail, changed, settled) = try row.decode(
                    (Int64, String, Date, String, Data, Int64, Bool).self)
                var mirrored = MirroredTimelineEvent(id: id, domain: domain, at: at, kind: kind, detail: detail)
                mirrored.changed = changed
                changes.timeline.append(mirrored)
                if settled, settling { changes.next.timeline = changed } else { settling = false }
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw .describing(error, while: "reading the cluster's changes")
        }
        changes.silences = try await silences(at: .distantPast)
        changes.full = [changes.domains.count, changes.runs.count, changes.documents.count, changes.timeline.count]
            .contains(limit)
        return changes
    }
}

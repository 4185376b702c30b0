import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore
import PostgresNIO

/// The checks of one journal batch, written in two statements whatever their number: the fence, then every
/// record. (Per-record statements, a savepoint each, were most of a cluster node's CPU above a daemon of its own:
/// each round trip is a wake-up of postgres-nio's event loop and of the task waiting on it.)
///
/// 1. `fence()` locks the rows of the domains still held under the checks' leases (owner and epoch; a check
///    without a fence locks its row whatever holds it) and reserves the ids of the runs the checks open, so that
///    each domain's entry can name its run before anything is written. A check whose row it does not return was
///    claimed by another daemon since: `.fenced`, nothing of it is written.
/// 2. `write()` is one statement of data-modifying CTEs (documents, the runs closed and opened, the domains'
///    rows, first events, outbox rows), each fed by arrays; PostgreSQL runs every CTE to completion.
///
/// A batch never holds the same domain twice (`PostgresJournal` splits it).
struct CheckBatch {
    struct Item {
        let index: Int
        let report: DomainReport
        let outcome: LedgerOutcome
        let fence: Fence?
        var starts: Bool {
            if case .start = outcome.run { return true }
            return false
        }
    }

    /// What the fence found of a held domain's row.
    struct Held {
        var runID: Int64?
        var runLastSeen: Date?
        var runChecks: Int?
        var stateVersion: Int64
        var newRunID: Int64?
    }

    var items: [Item] = []

    /// Locks the held rows and reserves run ids. A check without a fence first gets its row if it has none.
    func fence(node: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> [String: Held] {
        let unfenced = items.filter { $0.fence == nil }.map(\.report.domain)
        if !unfenced.isEmpty {
            try await connection.query(
                """
                INSERT INTO domains (domain, next_due) SELECT name, now() FROM unnest(\(unfenced)::text[]) AS name
                ON CONFLICT (domain) DO NOTHING
                """, logger: logger)
        }
        let domains = items.map(\.report.domain)
        // -1: no fence (epochs start at 0 and a claim raises them).
        let epochs = items.map { $0.fence?.lease.epoch ?? -1 }
        let starts = items.map(\.starts)
        let rows = try await connection.query(
            """
            SELECT d.domain, d.run_id, d.run_last_seen, d.run_checks, d.state_version,
                   CASE WHEN u.starts THEN nextval('runs_id_seq') END
            FROM domains AS d
            JOIN unnest(\(domains)::text[], \(epochs)::bigint[], \(starts)::bool[]) AS u(domain, epoch, starts)
              ON d.domain = u.domain
            WHERE u.epoch < 0 OR (d.owner = \(node) AND d.epoch = u.epoch)
            FOR UPDATE OF d
            """, logger: logger)
        var held: [String: Held] = [:]
        for try await (domain, runID, lastSeen, checks, version, newRunID) in rows.decode(
            (String, Int64?, Date?, Int?, Int64, Int64?).self)
        {
            held[domain] = Held(
                runID: runID, runLastSeen: lastSeen, runChecks: checks, stateVersion: version, newRunID: newRunID)
        }
        return held
    }

    /// Writes the held checks' records; answers each item's run.
    func write(
        held: [String: Held], node: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [Int: RunMark] {
        var records = CheckRecords()
        var runs: [Int: RunMark] = [:]
        for item in items {
            guard let row = held[item.report.domain] else { continue }
            runs[item.index] = try records.add(item, row: row)
        }
        guard !records.domains.isEmpty else { return runs }
        try await connection.query(records.statement(node: node), logger: logger)
        return runs
    }
}

enum CheckBatchError: Error, CustomStringConvertible {
    case noRunID(String)

    var description: String {
        switch self {
        case .noRunID(let domain): "no history run id was reserved for \(domain)"
        }
    }
}

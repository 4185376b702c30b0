import AASA
import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore
import PostgresNIO

/// The daemon's journal on PostgreSQL: the same promises as SQLite's (`Journal`), kept in the cluster's tables.
///
/// A batch is one transaction with a savepoint per append, as on SQLite. A check made under a lease
/// (`JournalAppend.fence`) is written only while its lease holds: the fence is read first, under a row lock, and
/// when another daemon has claimed the domain since, the savepoint is rolled back and the append answers `.fenced`
/// — its state, history and posts are not written. A commit that queues posts raises the domain's state version,
/// which keys its outbox rows (one row per transition and webhook, by a unique constraint). Values are encoded as
/// SQLite's JSON columns are (`StoreCoding`), so both stores hold the same bytes for the same record.
package struct PostgresJournal: Journal {
    package let store: PostgresStore

    package init(store: PostgresStore) {
        self.store = store
    }

    package func append(_ appends: [JournalAppend]) async throws -> [JournalResult] {
        let node = store.node
        let logger = store.logger
        var sorting = RoutineChecks()
        var general: [(index: Int, append: JournalAppend)] = []
        for (index, append) in appends.enumerated() where !sorting.add(append, at: index) {
            general.append((index, append))
        }
        let routine = sorting
        let others = general
        if others.isEmpty {
            // The cluster's steady state: one statement, atomic on its own.
            let written = try await store.rows(
                "recording \(appends.count) checks", routine.update(node: node))
            return try routine.results(written: written, count: appends.count)
        }
        return try await store.transaction("appending \(appends.count) records") { connection in
            var results = [JournalResult](repeating: .fenced, count: appends.count)
            if !routine.isEmpty {
                let written = try await connection.query(routine.update(node: node), logger: logger).collect()
                for (index, result) in try routine.results(written: written, count: appends.count).enumerated()
                where routine.indices.contains(index) {
                    results[index] = result
                }
            }
            for (index, append) in others {
                try await connection.query("SAVEPOINT item", logger: logger)
                do {
                    let result = try await Self.apply(append, node: node, connection, logger)
                    if case .fenced = result {
                        try await connection.query("ROLLBACK TO SAVEPOINT item", logger: logger)
                    } else {
                        try await connection.query("RELEASE SAVEPOINT item", logger: logger)
                    }
                    results[index] = result
                } catch {
                    try await connection.query("ROLLBACK TO SAVEPOINT item", logger: logger)
                    results[index] = .failed(reason: "\(PostgresStoreError.describing(error, while: "appending"))")
                }
            }
            return results
        }
    }

    /// Writes one append: the node's condition set it replaces, its condition deliveries, and its check.
    static func apply(
        _ append: JournalAppend, node: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> JournalResult {
        if let conditions = append.conditions {
            try await connection.query("DELETE FROM conditions WHERE node = \(node)", logger: logger)
            for condition in conditions {
                try await connection.query(
                    """
                    INSERT INTO conditions (node, code, body)
                    VALUES (\(node), \(condition.code.id), \(try StoreCoding.encode(condition).bytea))
                    """, logger: logger)
            }
        }
        try await insertDeliveries(append.conditionDeliveries, domain: "", version: nil, connection, logger)
        guard let check = append.check else { return .committed(nil) }
        return try await write(check.outcome, report: check.report, fence: append.fence, node: node, connection, logger)
    }

    /// A check's records, under its fence when it has one.
    static func write(
        _ outcome: LedgerOutcome, report: DomainReport, fence: Fence?, node: String,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> JournalResult {
        let domain = report.domain
        // The fence, read under the row's lock so no claim moves the epoch before this transaction ends.
        let held: PostgresRowSequence
        if let fence {
            held = try await connection.query(
                """
                SELECT run_id, run_last_seen, run_checks FROM domains
                WHERE domain = \(domain) AND owner = \(node) AND epoch = \(fence.lease.epoch) FOR UPDATE
                """, logger: logger)
        } else {
            try await connection.query(
                "INSERT INTO domains (domain, next_due) VALUES (\(domain), now()) ON CONFLICT (domain) DO NOTHING",
                logger: logger)
            held = try await connection.query(
                "SELECT run_id, run_last_seen, run_checks FROM domains WHERE domain = \(domain) FOR UPDATE",
                logger: logger)
        }
        var open: (id: Int64?, lastSeen: Date?, checks: Int?)?
        for try await row in held.decode((Int64?, Date?, Int?).self) { open = row }
        guard let open else { return .fenced }
        let run: RunMark
        let runChecks: Int
        let runLastSeen: Date
        switch outcome.run {
        case .extend(let mark, let lastSeen):
            run = mark
            runChecks = (open.checks ?? 0) + 1
            runLastSeen = lastSeen
        case .start(let new):
            // Many domains may serve one document (a platform's template): its row is moved at most once a day,
            // or every node's commits would queue on that one row's lock. Retention counts in days.
            for (hash, text) in outcome.documents.sorted(by: { $0.key < $1.key }) {
                try await connection.query(
                    """
                    INSERT INTO documents (hash, canonical_text, first_seen, last_seen)
                    VALUES (\(hash), \(text), \(report.checkedAt), \(report.checkedAt))
                    ON CONFLICT (hash) DO NOTHING
                    """, logger: logger)
                try await connection.query(
                    """
                    UPDATE documents SET last_seen = \(report.checkedAt), changed = nextval('changes'),
                        changed_at = clock_timestamp()
                    WHERE hash = \(hash) AND last_seen < \(report.checkedAt) - interval '1 day'
                    """, logger: logger)
            }
            // The run that ends gets its figures from the domain's row, as on SQLite.
            if let id = open.id, let lastSeen = open.lastSeen, let checks = open.checks {
                try await connection.query(
                    """
                    UPDATE runs SET last_seen = \(lastSeen), checks = \(checks), changed = nextval('changes'), changed_at = clock_timestamp()
                    WHERE id = \(id)
                    """, logger: logger)
            }
            let inserted = try await connection.query(
                """
                INSERT INTO runs (domain, first_seen, last_seen, checks, verdict, origin_hash, cdn_hash, key, report,
                                  opens_history)
                VALUES (\(domain), \(new.firstSeen), \(new.lastSeen), \(new.checks), \(new.verdict.rawValue),
                        \(new.originHash), \(new.cdnHash), \(new.key), \(try StoreCoding.encode(new.report).bytea),
                        \(new.opensHistory))
                RETURNING id
                """, logger: logger)
            var id: Int64 = 0
            for try await value in inserted.decode(Int64.self) { id = value }
            run = RunMark(id: id, key: new.key)
            runChecks = new.checks
            runLastSeen = new.lastSeen
        }
        let entry = try StoreCoding.encode(BookEntry(committed: outcome, run: run))
        let queues: Int64 = outcome.deliveries.isEmpty ? 0 : 1
        let nextIn = fence?.nextCheckIn ?? 0
        let updated = try await connection.query(
            """
            UPDATE domains
            SET next_due = now() + make_interval(secs => \(nextIn)), owner = NULL, lease_until = NULL,
                state_version = state_version + \(queues), checked_by = \(node), checked_at = now(),
                entry = \(entry.bytea), verdict = \(outcome.state.verdict.rawValue), run_id = \(run.id),
                run_last_seen = \(runLastSeen), run_checks = \(runChecks), changed = nextval('changes'), changed_at = clock_timestamp()
            WHERE domain = \(domain)
            RETURNING state_version
            """, logger: logger)
        var version: Int64 = 0
        for try await value in updated.decode(Int64.self) { version = value }
        for event in FirstRunEvents.stored(outcome.timeline, run: outcome.run) {
            try await connection.query(
                """
                INSERT INTO timeline (domain, at, kind, detail)
                VALUES (\(domain), \(event.at), \(event.kind.rawValue), \(try StoreCoding.encode(event.detail).bytea))
                """, logger: logger)
        }
        try await insertDeliveries(outcome.deliveries, domain: domain, version: version, connection, logger)
        return .committed(run)
    }

    /// The outbox rows of `deliveries`, in order, keyed by the domain's state version (`nil`: a node's conditions,
    /// keyed by their delivery ids).
    static func insertDeliveries(
        _ deliveries: [LedgerDelivery], domain: String, version: Int64?, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        for (ordinal, delivery) in deliveries.enumerated() {
            let body = try MonitorJSON.encoder().encode(delivery.event)
            try await connection.query(
                """
                INSERT INTO outbox (domain, state_version, webhook, ordinal, delivery_id, event_id, body)
                VALUES (\(domain), \(version), \(delivery.webhook), \(ordinal), \(delivery.deliveryID),
                        \(delivery.event.id), \(body.bytea))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    package func book(domains: [String]) async throws -> [String: BookEntry] {
        let rows = try await store.rows(
            "reading the book",
            "SELECT domain, entry FROM domains WHERE domain = ANY(\(domains)) AND entry IS NOT NULL")
        var book: [String: BookEntry] = [:]
        for row in rows {
            let (domain, entry) = try row.decode((String, Data).self)
            book[domain] = try StoreCoding.decode(BookEntry.self, from: entry)
        }
        return book
    }

    package func activeConditions() async throws -> [MonitorConditions.Condition] {
        let rows = try await store.rows(
            "reading this node's conditions", "SELECT body FROM conditions WHERE node = \(store.node) ORDER BY code")
        return try rows.map { try StoreCoding.decode(MonitorConditions.Condition.self, from: try $0.decode(Data.self)) }
    }

    package func document(hash: String) async throws -> String? {
        let rows = try await store.rows(
            "reading a document", "SELECT canonical_text FROM documents WHERE hash = \(hash)")
        return try rows.first?.decode(String.self)
    }

    package func silences(at now: Date) async throws -> [Silence] {
        try await store.silences(at: now)
    }
}

/// Claims: how a cluster's core starts checks (`DaemonCore.Action.claim`).
extension PostgresJournal {
    /// What a claim brought, and when to ask again.
    package struct ClaimAnswer: Sendable {
        package var grants: [Grant]
        /// Seconds until something else becomes claimable (`nil`: nothing; not asked after a full grant).
        package var nextIn: Double?
        /// Domains whose stored entry could not be decoded: checked as if for the first time.
        package var unreadable: [String]
    }

    /// Claims at most `limit` domains due within `slack` seconds for `leaseFor` seconds, each with its entry.
    package func claim(limit: Int, slack: Double, leaseFor: Double) async throws(PostgresStoreError) -> ClaimAnswer {
        let leases = try await store.claim(limit: limit, ttl: leaseFor, slack: slack)
        var answer = ClaimAnswer(grants: [], nextIn: nil, unreadable: [])
        for lease in leases {
            var entry: BookEntry?
            if let data = lease.entry {
                entry = try? StoreCoding.decode(BookEntry.self, from: data)
                if entry == nil { answer.unreadable.append(lease.domain) }
            }
            answer.grants.append(Grant(lease: Lease(domain: lease.domain, epoch: lease.epoch), entry: entry))
        }
        if leases.count < limit { answer.nextIn = try await store.nextClaimableIn(slack: slack) }
        return answer
    }
}

import AASA
import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore
import PostgresNIO

/// The daemon's journal on PostgreSQL: the same promises as SQLite's (`Journal`), kept in the cluster's tables.
///
/// A batch is one transaction, its checks written by two statements whatever their number (`CheckBatch`). A check
/// made under a lease (`JournalAppend.fence`) is written only while its lease holds: the fence is read first, under
/// a row lock, and when another daemon has claimed the domain since, the append answers `.fenced` — its state,
/// history and posts are not written. A record the server refuses fails the transaction; the batch is then written
/// again one append at a time, so that only that append fails. A commit that queues posts raises the domain's state
/// version, which keys its outbox rows (one row per transition and webhook, by a unique constraint). Values are
/// encoded as SQLite's JSON columns are (`StoreCoding`), so both stores hold the same bytes for the same record.
package struct PostgresJournal: Journal {
    package let store: PostgresStore

    package init(store: PostgresStore) {
        self.store = store
    }

    package func append(_ appends: [JournalAppend]) async throws -> [JournalResult] {
        guard !appends.isEmpty else { return [] }
        do {
            return try await write(appends)
        } catch {
            // The server refused a record: the whole transaction is gone. Each append again on its own, so that one
            // bad record fails alone and the others are kept. Any other failure (no connection, no answer in time,
            // an answer this binary cannot read) is the store's, not a record's: thrown, the checks wait and retry.
            guard case .server = error else { throw error }
            guard appends.count > 1 else { return [.failed(reason: "\(error)")] }
            var results: [JournalResult] = []
            for append in appends { results += try await self.append([append]) }
            return results
        }
    }

    /// One transaction: the node's conditions and their deliveries, then the checks in `CheckBatch`es of
    /// distinct domains (one, unless a batch holds a domain twice).
    private func write(_ appends: [JournalAppend]) async throws(PostgresStoreError) -> [JournalResult] {
        let node = store.node
        let logger = store.logger
        var batches: [CheckBatch] = []
        for (index, append) in appends.enumerated() {
            guard let check = append.check else { continue }
            let item = CheckBatch.Item(index: index, report: check.report, outcome: check.outcome, fence: append.fence)
            if let free = batches.firstIndex(where: { !$0.items.contains { $0.report.domain == item.report.domain } }) {
                batches[free].items.append(item)
            } else {
                batches.append(CheckBatch(items: [item]))
            }
        }
        let checks = batches
        return try await store.transaction("appending \(appends.count) records") { connection in
            var results = [JournalResult](repeating: .committed(nil), count: appends.count)
            for append in appends {
                if let conditions = append.conditions {
                    try await Self.replaceConditions(conditions, node: node, connection, logger)
                }
                try await Self.insertConditionDeliveries(append.conditionDeliveries, connection, logger)
            }
            for batch in checks {
                let held = try await batch.fence(node: node, connection, logger)
                let runs = try await batch.write(held: held, node: node, connection, logger)
                for item in batch.items {
                    results[item.index] = held[item.report.domain] == nil ? .fenced : .committed(runs[item.index])
                }
            }
            return results
        }
    }

    /// The node's conditions become `conditions`.
    static func replaceConditions(
        _ conditions: [MonitorConditions.Condition], node: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        try await connection.query("DELETE FROM conditions WHERE node = \(node)", logger: logger)
        for condition in conditions {
            try await connection.query(
                """
                INSERT INTO conditions (node, code, body)
                VALUES (\(node), \(condition.code.id), \(try StoreCoding.encode(condition).bytea))
                """, logger: logger)
        }
    }

    /// The outbox rows of a node's condition deliveries, in order: they have no domain nor state version, their
    /// delivery ids key them. (A check's rows are written by `CheckBatch`.)
    static func insertConditionDeliveries(
        _ deliveries: [LedgerDelivery], _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        for (ordinal, delivery) in deliveries.enumerated() {
            let body = try MonitorJSON.encoder().encode(delivery.event)
            try await connection.query(
                """
                INSERT INTO outbox (domain, state_version, webhook, ordinal, delivery_id, event_id, body)
                VALUES ('', NULL, \(delivery.webhook), \(ordinal), \(delivery.deliveryID),
                        \(delivery.event.id), \(body.bytea))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    package func book(domains: [String]) async throws -> [String: BookEntry] {
        let rows = try await store.rows(
            "reading the book",
            """
            SELECT domain, state, alerts, run_id, run_key, entry FROM domains
            WHERE domain = ANY(\(domains)) AND (state IS NOT NULL OR entry IS NOT NULL)
            """)
        var book: [String: BookEntry] = [:]
        for row in rows {
            let (domain, state, alerts, runID, runKey, legacy) = try row.decode(
                (String, Data?, Data?, Int64?, String?, Data?).self)
            book[domain] = try StoredEntry(state: state, alerts: alerts, runID: runID, runKey: runKey, legacy: legacy)
                .entry()
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
            do { entry = try lease.entry() } catch { answer.unreadable.append(lease.domain) }
            answer.grants.append(Grant(lease: Lease(domain: lease.domain, epoch: lease.epoch), entry: entry))
        }
        if leases.count < limit { answer.nextIn = try await store.nextClaimableIn(slack: slack) }
        return answer
    }
}

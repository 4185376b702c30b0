import Foundation
import MonitorCore
import PostgresNIO

/// Domain leases: which node checks which domain now. Judged by the database's clock only.
extension PostgresStore {
    /// Adds the domains no row holds yet, due at random within `spread` seconds (a new fleet's first checks are
    /// spread as a daemon of its own spreads them, not all due at once); rows of other domains are left as they
    /// are (another node may be configured with them during a rolling change).
    package func register(domains: [String], spread: Double = 0) async throws(PostgresStoreError) {
        guard !domains.isEmpty else { return }
        let logger = self.logger
        _ = try await transaction("registering \(domains.count) domains") { connection in
            try await connection.query(
                """
                INSERT INTO domains (domain, next_due)
                SELECT name, now() + make_interval(secs => random() * \(spread)) FROM unnest(\(domains)::text[]) AS name
                ON CONFLICT (domain) DO NOTHING
                """, logger: logger)
        }
    }

    /// Claims at most `limit` domains due within `slack` seconds whose lease is free or expired, oldest due
    /// first, for `ttl` seconds. Rows another node is claiming at this moment are skipped, not waited for.
    package func claim(limit: Int, ttl: Double, slack: Double = 0) async throws(PostgresStoreError) -> [DomainLease] {
        let node = self.node
        let rows = try await rows(
            "claiming due domains",
            """
            UPDATE domains AS d
            SET owner = \(node), epoch = d.epoch + 1, lease_until = now() + make_interval(secs => \(ttl))
            WHERE d.domain IN (
                SELECT domain FROM domains
                WHERE next_due <= now() + make_interval(secs => \(slack))
                  AND (lease_until IS NULL OR lease_until < now())
                ORDER BY next_due
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED)
            RETURNING d.domain, d.epoch, d.next_due, d.state, d.alerts, d.run_id, d.run_key, d.entry
            """)
        var leases: [DomainLease] = []
        do {
            for row in rows {
                let (domain, epoch, due, state, alerts, runID, runKey, legacy) = try row.decode(
                    (String, Int64, Date, Data?, Data?, Int64?, String?, Data?).self)
                let stored = StoredEntry(state: state, alerts: alerts, runID: runID, runKey: runKey, legacy: legacy)
                leases.append(DomainLease(domain: domain, epoch: epoch, due: due, stored: stored))
            }
        } catch {
            throw .describing(error, while: "reading claimed domains")
        }
        return leases.sorted { ($0.due, $0.domain) < ($1.due, $1.domain) }
    }

    /// Seconds until the earliest domain not claimable now becomes so: the next due time after `slack`, or the end
    /// of a lease (a node that died holding it); `nil` when neither exists. Both read an index.
    package func nextClaimableIn(slack: Double) async throws(PostgresStoreError) -> Double? {
        let rows = try await rows(
            "reading the next due time",
            """
            SELECT extract(epoch FROM least(
                (SELECT min(next_due) FROM domains WHERE next_due > now() + make_interval(secs => \(slack))),
                (SELECT min(lease_until) FROM domains WHERE lease_until IS NOT NULL)) - now())::float8
            """)
        do {
            return try rows.first?.decode(Double?.self) ?? nil
        } catch {
            throw .describing(error, while: "reading the next due time")
        }
    }

    /// Gives back leases not used (shutdown before their checks started): the domains are free at once.
    package func release(_ leases: [Lease]) async throws(PostgresStoreError) {
        guard !leases.isEmpty else { return }
        let node = self.node
        let domains = leases.map(\.domain)
        let epochs = leases.map(\.epoch)
        _ = try await rows(
            "releasing \(leases.count) leases",
            """
            UPDATE domains AS d SET owner = NULL, lease_until = NULL
            FROM unnest(\(domains)::text[], \(epochs)::bigint[]) AS l(domain, epoch)
            WHERE d.domain = l.domain AND d.epoch = l.epoch AND d.owner = \(node)
            """)
    }
}

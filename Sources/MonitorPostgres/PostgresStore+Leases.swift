import Foundation
import PostgresNIO

/// Domain leases: which node checks which domain now. Judged by the database's clock only.
extension PostgresStore {
    /// Adds the domains no row holds yet, due at once; rows of other domains are left as they are (another node
    /// may be configured with them during a rolling change).
    package func register(domains: [String]) async throws(PostgresStoreError) {
        guard !domains.isEmpty else { return }
        let logger = self.logger
        _ = try await transaction("registering \(domains.count) domains") { connection in
            try await connection.query(
                """
                INSERT INTO domains (domain, next_due)
                SELECT name, now() FROM unnest(\(domains)::text[]) AS name
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
            RETURNING d.domain, d.epoch, d.next_due, d.entry
            """)
        var leases: [DomainLease] = []
        do {
            for row in rows {
                let (domain, epoch, due, entry) = try row.decode((String, Int64, Date, Data?).self)
                leases.append(DomainLease(domain: domain, epoch: epoch, due: due, entry: entry))
            }
        } catch {
            throw .describing(error, while: "reading claimed domains")
        }
        return leases.sorted { ($0.due, $0.domain) < ($1.due, $1.domain) }
    }

    /// Writes a check's result and its transitions' posts in one transaction, only if no claim has taken the domain
    /// since `commit.lease` (owner and epoch unchanged; a lapsed lease nobody claimed again still commits, as no
    /// other check of the domain ran). The fence is the first statement; when it matches no row nothing is written.
    package func commit(_ commit: LeasedCommit) async throws(PostgresStoreError) -> LeasedCommitResult {
        let node = self.node
        let logger = self.logger
        // A commit that queues posts is a new state version: its rows are keyed by it.
        let transitions: Int64 = commit.deliveries.isEmpty ? 0 : 1
        return try await transaction("committing the check of \(commit.lease.domain)") { connection in
            let fenced = try await connection.query(
                """
                UPDATE domains
                SET next_due = now() + make_interval(secs => \(commit.nextIn)), owner = NULL, lease_until = NULL,
                    state_version = state_version + \(transitions), checked_by = \(node), checked_at = now(),
                    entry = \(commit.entry.bytea)
                WHERE domain = \(commit.lease.domain) AND owner = \(node) AND epoch = \(commit.lease.epoch)
                RETURNING state_version
                """, logger: logger)
            var version: Int64?
            for try await value in fenced.decode(Int64.self) { version = value }
            guard let version else { return .fenced }
            for (ordinal, delivery) in commit.deliveries.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO outbox (domain, state_version, webhook, ordinal, delivery_id, body)
                    VALUES (\(commit.lease.domain), \(version), \(delivery.webhook), \(ordinal),
                            \(delivery.deliveryID), \(delivery.body.bytea))
                    ON CONFLICT (domain, state_version, webhook, ordinal) DO NOTHING
                    """, logger: logger)
            }
            return .committed(stateVersion: version)
        }
    }

    /// Gives back leases not used (shutdown before their checks started): the domains are free at once.
    package func release(_ leases: [DomainLease]) async throws(PostgresStoreError) {
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

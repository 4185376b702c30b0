import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// A check that repeats its domain's outcome (the steady state: its run is extended, nothing is posted) under its
/// fence, beside a first check in the same batch (`CheckBatch`), against a real PostgreSQL 15.
@Suite("PostgreSQL repeated outcomes under their fences")
struct RepeatedOutcomeTests {
    @Test(
        "repeated outcomes extend their runs under their fences; a late repeat writes nothing; first checks beside them"
    )
    func repeatedOutcomesAreFenced() async throws {
        try await withTwoNodes { server, location, a, b in
            try await a.register(domains: ["x.test", "y.test"])
            let opening = try await PostgresJournal(store: a).claim(limit: 2, slack: 0, leaseFor: 60).grants
            let firsts = opening.map { JournalFixtures.check($0.lease.domain, at: 0, lease: $0.lease, nextIn: 0) }
            #expect(try await PostgresJournal(store: a).append(firsts).map(\.isCommitted) == [true, true])
            // a's leases of both lapse at once (0 s); b takes both.
            let stale = try await PostgresJournal(store: a).claim(limit: 2, slack: 0, leaseFor: 0).grants
            let fresh = try await PostgresJournal(store: b).claim(limit: 2, slack: 0, leaseFor: 60).grants
            #expect(stale.count == 2 && fresh.count == 2)
            let late = try #require(stale.first { $0.lease.domain == "x.test" })
            let lateRepeat = JournalFixtures.check("x.test", at: 1, entry: late.entry, lease: late.lease)
            guard case .extend = try #require(lateRepeat.check).outcome.run else {
                Issue.record("a repeated outcome should extend its run")
                return
            }
            #expect(try await PostgresJournal(store: a).append([lateRepeat]).map(\.isFenced) == [true])

            try await b.register(domains: ["z.test"])
            let first = try #require(
                try await PostgresJournal(store: b).claim(limit: 1, slack: 0, leaseFor: 60).grants.first)
            let batch =
                fresh.sorted { $0.lease.domain < $1.lease.domain }.map {
                    JournalFixtures.check($0.lease.domain, at: 2, entry: $0.entry, lease: $0.lease, nextIn: 600)
                } + [JournalFixtures.check("z.test", at: 2, lease: first.lease)]
            let results = try await PostgresJournal(store: b).append(batch)
            #expect(results.map(\.isCommitted) == [true, true, true])
            let rows = try server.psql(
                """
                SELECT domain, checked_by, run_checks, owner IS NULL, round(extract(epoch FROM next_due - checked_at)),
                       (SELECT count(*) FROM runs r WHERE r.domain = d.domain)
                FROM domains d ORDER BY domain
                """, database: location.database)
            #expect(rows == "x.test|b|2|t|600|1\ny.test|b|2|t|600|1\nz.test|b|1|t|60|1")
            // The next claim brings the entry b wrote, with the run the first check opened.
            _ = try server.psql("UPDATE domains SET next_due = now()", database: location.database)
            let again = try await PostgresJournal(store: a).claim(limit: 3, slack: 0, leaseFor: 60).grants
            let x = try #require(again.first { $0.lease.domain == "x.test" })
            #expect(x.entry?.state == batch[0].check?.outcome.state)
            #expect(x.entry?.run == late.entry?.run)
        }
    }
}

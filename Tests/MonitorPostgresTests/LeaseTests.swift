import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// The lease and fence rules in SQL, against a real PostgreSQL 15: one check at a time per domain, a late writer
/// writes nothing.
@Suite("PostgreSQL leases and fencing")
struct LeaseTests {
    @Test("two nodes claiming at once share the due domains without overlap")
    func disjointClaims() async throws {
        try await withTwoNodes { _, _, a, b in
            let domains = (0..<200).map { "d\($0).test" }
            try await a.register(domains: domains)
            async let fromA = a.claim(limit: 150, ttl: 60)
            async let fromB = b.claim(limit: 150, ttl: 60)
            let (leasedA, leasedB) = try await (fromA, fromB)
            let namesA = Set(leasedA.map(\.domain))
            let namesB = Set(leasedB.map(\.domain))
            #expect(namesA.isDisjoint(with: namesB))
            #expect(namesA.union(namesB) == Set(domains))
            // Nothing is left to claim while the leases hold.
            #expect(try await a.claim(limit: 10, ttl: 60).isEmpty)
            #expect(try await b.claim(limit: 10, ttl: 60).isEmpty)
        }
    }

    @Test("a committed check frees the domain until its next due time, by the database's clock")
    func commitSchedulesNext() async throws {
        try await withTwoNodes { server, location, a, b in
            #expect(try await JournalFixtures.claimAndCommit(a, "one.test", nextIn: 600).isCommitted)
            #expect(try await b.claim(limit: 1, ttl: 60).isEmpty)
            let row = try server.psql(
                "SELECT owner IS NULL, checked_by, round(extract(epoch FROM next_due - checked_at)) FROM domains",
                database: location.database)
            #expect(row == "t|a|600")
            // Asked when it can claim again: in about 600 s, by the database's clock.
            let next = try #require(try await PostgresJournal(store: b).claim(limit: 1, slack: 0, leaseFor: 60).nextIn)
            #expect(next > 590 && next <= 600)
        }
    }

    @Test("a node whose lease lapsed and was taken writes nothing: no state, no history, no outbox row")
    func lateWriterIsFenced() async throws {
        try await withTwoNodes { server, location, a, b in
            try await a.register(domains: ["late.test"])
            // A lease of 0 s has lapsed by the next transaction (the database's now() has moved on).
            let stale = try #require(try await a.claim(limit: 1, ttl: 0).first)
            let fresh = try #require(try await b.claim(limit: 1, ttl: 60).first)
            #expect(fresh.epoch == stale.epoch + 1)
            let late = JournalFixtures.check(
                "late.test", at: 0, broken: true, lease: Lease(domain: "late.test", epoch: stale.epoch))
            let current = JournalFixtures.check(
                "late.test", at: 1, broken: true, lease: Lease(domain: "late.test", epoch: fresh.epoch))
            // One batch of a: its fenced item is rolled back alone; a's other domain in the batch commits.
            try await a.register(domains: ["other.test"])
            let other = try #require(try await a.claim(limit: 1, ttl: 60).first)
            let results = try await PostgresJournal(store: a).append([
                late,
                JournalFixtures.check("other.test", at: 0, lease: Lease(domain: "other.test", epoch: other.epoch)),
            ])
            #expect(results.map(\.isFenced) == [true, false])
            #expect(results[1].isCommitted)
            #expect(try await PostgresJournal(store: b).append([current])[0].isCommitted)
            let rows = try server.psql(
                """
                SELECT (SELECT count(*) FROM outbox), (SELECT count(*) FROM runs WHERE domain = 'late.test'),
                       (SELECT checked_by FROM domains WHERE domain = 'late.test'),
                       (SELECT count(*) FROM runs WHERE domain = 'other.test')
                """, database: location.database)
            #expect(rows == "1|1|b|1")
        }
    }

    @Test("a lease that holds is not taken; the holder's commit goes through and the next claim gets its entry")
    func heldLeaseIsKept() async throws {
        try await withTwoNodes { _, _, a, b in
            try await a.register(domains: ["held.test"])
            let lease = try #require(try await a.claim(limit: 1, ttl: 300).first)
            #expect(try await b.claim(limit: 1, ttl: 60).isEmpty)
            let append = JournalFixtures.check(
                "held.test", at: 0, broken: true, lease: Lease(domain: "held.test", epoch: lease.epoch), nextIn: 0)
            #expect(try await PostgresJournal(store: a).append([append])[0].isCommitted)
            // Due again at once (nextIn 0): now the other node may take it, with the entry a committed.
            let next = try #require(
                try await PostgresJournal(store: b).claim(limit: 1, slack: 0, leaseFor: 60).grants.first)
            let outcome = try #require(append.check?.outcome)
            #expect(next.entry?.state == outcome.state)
            #expect(next.entry?.alerts == outcome.alerts)
            #expect(next.lease.epoch == lease.epoch + 1)
        }
    }

    @Test("leases given back at shutdown free their domains at once; another node's lease is not touched")
    func releaseFrees() async throws {
        try await withTwoNodes { _, _, a, b in
            try await a.register(domains: ["r1.test", "r2.test"])
            let leases = try await a.claim(limit: 2, ttl: 300)
            #expect(leases.count == 2)
            let given = leases.map { Lease(domain: $0.domain, epoch: $0.epoch) }
            try await b.release(given)
            #expect(try await b.claim(limit: 2, ttl: 60).isEmpty)
            try await a.release(given)
            #expect(try await b.claim(limit: 2, ttl: 60).map(\.domain) == ["r1.test", "r2.test"])
        }
    }

    @Test("registering the fleet again adds only new domains and keeps the others' state")
    func registerIsIdempotent() async throws {
        try await withTwoNodes { _, _, a, b in
            #expect(try await JournalFixtures.claimAndCommit(a, "keep.test", nextIn: 600).isCommitted)
            try await b.register(domains: ["keep.test", "new.test"])
            let claimed = try await b.claim(limit: 5, ttl: 60)
            #expect(claimed.map(\.domain) == ["new.test"])
        }
    }
}

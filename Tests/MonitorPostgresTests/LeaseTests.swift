import Foundation
import MonitorPostgres
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
            try await a.register(domains: ["one.test"])
            let lease = try #require(try await a.claim(limit: 1, ttl: 60).first)
            #expect(lease.entry == nil)
            let result = try await a.commit(
                LeasedCommit(lease: lease, entry: entry("after one"), nextIn: 600, deliveries: []))
            #expect(result == .committed(stateVersion: 0))
            #expect(try await b.claim(limit: 1, ttl: 60).isEmpty)
            let row = try server.psql(
                "SELECT owner IS NULL, checked_by, round(extract(epoch FROM next_due - checked_at)) FROM domains",
                database: location.database)
            #expect(row == "t|a|600")
        }
    }

    @Test("a node whose lease lapsed and was taken writes nothing: no state, no outbox row")
    func lateWriterIsFenced() async throws {
        try await withTwoNodes { server, location, a, b in
            try await a.register(domains: ["late.test"])
            // A lease of 0 s has lapsed by the next transaction (the database's now() has moved on).
            let stale = try #require(try await a.claim(limit: 1, ttl: 0).first)
            let fresh = try #require(try await b.claim(limit: 1, ttl: 60).first)
            #expect(fresh.epoch == stale.epoch + 1)
            let firing = LeasedCommit.Delivery(webhook: "ops", deliveryID: "evt-a", body: entry("{}"))
            #expect(
                try await a.commit(LeasedCommit(lease: stale, entry: entry("a's"), nextIn: 60, deliveries: [firing]))
                    == .fenced)
            #expect(
                try await b.commit(
                    LeasedCommit(
                        lease: fresh, entry: entry("b's"), nextIn: 60,
                        deliveries: [.init(webhook: "ops", deliveryID: "evt-b", body: entry("{}"))]))
                    == .committed(stateVersion: 1))
            let rows = try server.psql(
                "SELECT delivery_id FROM outbox UNION ALL SELECT convert_from(entry, 'UTF8') FROM domains",
                database: location.database)
            #expect(rows.split(separator: "\n") == ["evt-b", "b's"])
        }
    }

    @Test("a lease that holds is not taken, and the holder's commit goes through")
    func heldLeaseIsKept() async throws {
        try await withTwoNodes { _, _, a, b in
            try await a.register(domains: ["held.test"])
            let lease = try #require(try await a.claim(limit: 1, ttl: 300).first)
            #expect(try await b.claim(limit: 1, ttl: 60).isEmpty)
            #expect(
                try await a.commit(LeasedCommit(lease: lease, entry: entry("x"), nextIn: 0, deliveries: []))
                    == .committed(stateVersion: 0))
            // Due again at once (nextIn 0): now the other node may take it, with the entry a committed.
            let next = try #require(try await b.claim(limit: 1, ttl: 60).first)
            #expect(next.entry == entry("x"))
            #expect(next.epoch == lease.epoch + 1)
        }
    }

    @Test("leases given back at shutdown free their domains at once; another node's lease is not touched")
    func releaseFrees() async throws {
        try await withTwoNodes { _, _, a, b in
            try await a.register(domains: ["r1.test", "r2.test"])
            let leases = try await a.claim(limit: 2, ttl: 300)
            #expect(leases.count == 2)
            try await b.release(leases)
            #expect(try await b.claim(limit: 2, ttl: 60).isEmpty)
            try await a.release(leases)
            #expect(try await b.claim(limit: 2, ttl: 60).map(\.domain) == ["r1.test", "r2.test"])
        }
    }

    @Test("registering the fleet again adds only new domains and keeps the others' state")
    func registerIsIdempotent() async throws {
        try await withTwoNodes { _, _, a, b in
            try await a.register(domains: ["keep.test"])
            let lease = try #require(try await a.claim(limit: 1, ttl: 60).first)
            _ = try await a.commit(LeasedCommit(lease: lease, entry: entry("kept"), nextIn: 600, deliveries: []))
            try await b.register(domains: ["keep.test", "new.test"])
            let claimed = try await b.claim(limit: 5, ttl: 60)
            #expect(claimed.map(\.domain) == ["new.test"])
        }
    }
}

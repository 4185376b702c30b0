import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport
import Testing

/// Exactly-once emission (a unique key per transition and webhook) and claimed delivery, against a real server.
@Suite("PostgreSQL outbox")
struct OutboxClaimTests {
    /// Commits one check of `domain` on `store` whose alert fires (or, for `"resolved"`, resolves), posted to each
    /// of `webhooks`.
    func transition(
        _ store: PostgresStore, _ domain: String, _ kind: String, webhooks: [String] = ["ops"]
    ) async throws -> JournalResult {
        try await JournalFixtures.claimAndCommit(
            store, domain, at: kind == "resolved" ? 1 : 0, broken: kind != "resolved", webhooks: webhooks)
    }

    /// The event type a post carries (`alert.firing`).
    func type(_ post: ClaimedDelivery) -> String? {
        let json = try? JSONSerialization.jsonObject(with: post.body) as? [String: Any]
        return json?["type"] as? String
    }

    @Test("the same transition cannot be stored twice: the unique key refuses the second row")
    func uniqueEmission() async throws {
        try await withTwoNodes { server, location, a, _ in
            let first = try await transition(a, "u.test", "fire", webhooks: ["ops", "chat"])
            #expect(first.isCommitted)
            #expect(try server.psql("SELECT state_version FROM domains", database: location.database) == "1")
            let second = server.psqlFails(
                """
                INSERT INTO outbox (domain, state_version, webhook, ordinal, delivery_id, body)
                VALUES ('u.test', 1, 'ops', 0, 'again', '')
                """, database: location.database)
            #expect(second.contains("duplicate key"))
            #expect(try server.psql("SELECT count(*) FROM outbox", database: location.database) == "2")
        }
    }

    @Test("each post is claimed by one node; a post is marked delivered only by its claimer")
    func claimedOnce() async throws {
        try await withTwoNodes { _, _, a, b in
            for n in 0..<20 { _ = try await transition(a, "c\(n).test", "e\(n)") }
            async let fromA = a.claimDeliveries(limit: 15, ttl: 60)
            async let fromB = b.claimDeliveries(limit: 15, ttl: 60)
            let (postsA, postsB) = try await (fromA, fromB)
            #expect(Set(postsA.map(\.id)).isDisjoint(with: Set(postsB.map(\.id))))
            #expect(postsA.count + postsB.count == 20)
            let one = try #require(postsA.first ?? postsB.first)
            let (owner, other) = postsA.contains(one) ? (a, b) : (b, a)
            #expect(try await other.delivered(one) == false)
            #expect(try await owner.delivered(one) == true)
            #expect(try await owner.delivered(one) == false)
        }
    }

    @Test("a resolution is not claimable before its firing is delivered, whichever node asks")
    func orderPerDomainAndWebhook() async throws {
        try await withTwoNodes { _, _, a, b in
            _ = try await transition(a, "o.test", "firing")
            _ = try await transition(a, "o.test", "resolved")
            let first = try await a.claimDeliveries(limit: 10, ttl: 60)
            #expect(first.map(type) == ["alert.firing"])
            #expect(try await b.claimDeliveries(limit: 10, ttl: 60).isEmpty)
            #expect(try await a.delivered(try #require(first.first)))
            #expect(try await b.claimDeliveries(limit: 10, ttl: 60).map(type) == ["alert.resolved"])
        }
    }

    @Test("a claim that lapsed (its node died mid-send) is taken by another node with the same webhook-id")
    func lapsedClaimResent() async throws {
        try await withTwoNodes { _, _, a, b in
            _ = try await transition(a, "l.test", "evt")
            let lost = try #require(try await a.claimDeliveries(limit: 1, ttl: 0).first)
            let taken = try #require(try await b.claimDeliveries(limit: 1, ttl: 60).first)
            #expect(taken.deliveryID == lost.deliveryID)
            #expect(taken.attempts == 2)
            #expect(try await a.delivered(lost) == false)
            #expect(try await b.delivered(taken) == true)
        }
    }

    @Test("a failed post waits for its retry time, then is claimable again with its reason kept")
    func failedPostRetried() async throws {
        try await withTwoNodes { server, location, a, _ in
            _ = try await transition(a, "f.test", "evt")
            let post = try #require(try await a.claimDeliveries(limit: 1, ttl: 60).first)
            try await a.markRetry(
                id: post.id, at: Date(), nextAttemptAt: Date().addingTimeInterval(3_600), status: 503, error: "HTTP 503"
            )
            #expect(try await a.claimDeliveries(limit: 1, ttl: 60).isEmpty)
            try await a.markRetry(
                id: post.id, at: Date(), nextAttemptAt: Date().addingTimeInterval(3_600), status: nil,
                error: "not claimed: ignored")
            _ = try server.psql("UPDATE outbox SET next_attempt = now()", database: location.database)
            #expect(try await a.claimDeliveries(limit: 1, ttl: 60).map(\.attempts) == [2])
            #expect(try server.psql("SELECT last_error FROM outbox", database: location.database) == "HTTP 503")
        }
    }
}

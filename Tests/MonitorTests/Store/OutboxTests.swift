import Foundation
import MonitorDaemon
import MonitorStore
import TestSupport
import Testing

@Suite("Store outbox")
struct OutboxTests {
    typealias R = StoreReports

    private func insert(_ id: String, at minutes: Double) -> OutboxInsert {
        OutboxInsert(
            deliveryID: id, eventID: "event-\(id)", webhook: "ops", eventJSON: Data(#"{"type":"test"}"#.utf8),
            createdAt: R.at(minutes), nextAttemptAt: R.at(minutes))
    }

    @Test(
        "a delivery goes pending → retrying → delivered, and a duplicate id is ignored", arguments: StoreKind.allCases)
    func lifecycle(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            #expect(try await store.enqueue([insert("a", at: 0), insert("a", at: 0), insert("b", at: 5)]) == 2)
            #expect(try await store.dueDeliveries(now: R.at(1)).map(\.deliveryID) == ["a"])
            #expect(try await store.nextAttemptTime() == R.at(0))
            let first = try #require(try await store.dueDeliveries(now: R.at(1)).first)

            try await store.markRetry(id: first.id, at: R.at(1), nextAttemptAt: R.at(3), status: 503, error: "busy")
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 1, retrying: 1, dead: 0))
            #expect(try await store.dueDeliveries(now: R.at(2)).isEmpty)
            let retry = try #require(try await store.dueDeliveries(now: R.at(3)).first)
            #expect(retry.attempts == 1)
            #expect(retry.firstAttemptAt == R.at(1))
            #expect(retry.lastStatus == 503)
            #expect(retry.lastError == "busy")

            try await store.markDelivered(id: retry.id, at: R.at(3), status: 200)
            let second = try #require(try await store.dueDeliveries(now: R.at(6)).first)
            try await store.markDead(id: second.id, at: R.at(6), status: nil, error: "connection refused")
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 0, retrying: 0, dead: 1))
            #expect(try await store.dueDeliveries(now: R.at(100)).isEmpty)
            // A late mark on a finished delivery changes nothing.
            try await store.markRetry(id: retry.id, at: R.at(7), nextAttemptAt: R.at(8), status: 500, error: nil)
            #expect(try await store.dueDeliveries(now: R.at(100)).isEmpty)
        }
    }

    @Test("retention removes finished deliveries and keeps unfinished ones", arguments: StoreKind.allCases)
    func prune(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            try await store.enqueue([insert("done", at: 0), insert("waiting", at: 0)])
            let done = try #require(try await store.dueDeliveries(now: R.at(0)).first { $0.deliveryID == "done" })
            try await store.markDelivered(id: done.id, at: R.at(1), status: 204)
            let result = try await store.prune(olderThan: R.at(10))
            #expect(result.deliveries == 1)
            #expect(try await store.dueDeliveries(now: R.at(10)).map(\.deliveryID) == ["waiting"])
        }
    }
}

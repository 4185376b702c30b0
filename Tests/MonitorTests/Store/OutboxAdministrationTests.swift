import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// Issue 25 item 7 at the store: list, retry and drop outbox rows, as `aasa-monitor outbox` and an API would.
@Suite("Store outbox administration")
struct OutboxAdministrationTests {
    typealias R = StoreReports

    private static func insert(_ id: String, webhook: String = "ops", at minutes: Double = 0) -> OutboxInsert {
        let event = #"{"type":"alert.firing","id":"evt_\#(id)","domain":"\#(id).example.com","code":"origin.status"}"#
        return OutboxInsert(
            deliveryID: "dlv_\(id)", eventID: "evt_\(id)", webhook: webhook, eventJSON: Data(event.utf8),
            createdAt: R.at(minutes), nextAttemptAt: R.at(minutes))
    }

    /// Queues `a` (ops, dead after two attempts), `b` (ops, retrying), `c` (chat, dead) and `d` (ops, delivered).
    private static func fill(_ store: MonitorStore) async throws -> [String: Int64] {
        try await store.enqueue(["a", "b", "d"].map { insert($0) } + [insert("c", webhook: "chat")])
        let ids = Dictionary(
            uniqueKeysWithValues: try await store.allDeliveries().map {
                ($0.deliveryID.replacing("dlv_", with: ""), $0.id)
            })
        for (key, id) in ids {
            switch key {
            case "a":
                try await store.markRetry(id: id, at: R.at(1), nextAttemptAt: R.at(2), status: 503, error: "busy")
                try await store.markDead(id: id, at: R.at(2), status: 404, error: "the receiver answered 404")
            case "b":
                try await store.markRetry(id: id, at: R.at(1), nextAttemptAt: R.at(60), status: nil, error: "refused")
            case "c": try await store.markDead(id: id, at: R.at(1), status: 410, error: "gone")
            default: try await store.markDelivered(id: id, at: R.at(1), status: 200)
            }
        }
        return ids
    }

    @Test(
        "list shows undelivered rows oldest first with their event; dead and webhook filter; the limit keeps the total",
        arguments: StoreKind.allCases)
    func list(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let all = try await store.reader.outbox(OutboxFilter())
            #expect(all.deliveries.map(\.deliveryID) == ["dlv_a", "dlv_b", "dlv_c"])
            #expect(all.total == 3)
            let a = try #require(all.deliveries.first)
            #expect(a.id == ids["a"])
            #expect(a.standing == .dead)
            #expect(a.eventType == "alert.firing")
            #expect(a.domain == "a.example.com")
            #expect(a.code == "origin.status")
            #expect(a.attempts == 2)
            #expect(a.nextAttemptAt == nil)
            #expect(a.finishedAt == R.at(2))
            #expect(a.lastStatus == 404)
            #expect(a.lastError == "the receiver answered 404")
            #expect(all.deliveries[1].standing == .retrying)
            #expect(all.deliveries[1].nextAttemptAt == R.at(60))

            let dead = try await store.reader.outbox(OutboxFilter(deadOnly: true))
            #expect(dead.deliveries.map(\.deliveryID) == ["dlv_a", "dlv_c"])
            let chat = try await store.reader.outbox(OutboxFilter(deadOnly: true, webhook: "chat"))
            #expect(chat.deliveries.map(\.deliveryID) == ["dlv_c"])
            let first = try await store.reader.outbox(OutboxFilter(limit: 1))
            #expect(first.deliveries.count == 1)
            #expect(first.total == 3)
        }
    }

    @Test(
        "a retried dead letter is pending and due now, its attempts and give-up age reset, its ids kept",
        arguments: StoreKind.allCases)
    func retryDead(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let id = try #require(ids["a"])
            let entry = try await store.retryDelivery(id: id, at: R.at(50)).entry
            #expect(entry.standing == .pending)
            #expect(entry.attempts == 0)
            #expect(entry.nextAttemptAt == R.at(50))
            #expect(entry.finishedAt == nil)
            #expect(entry.eventID == "evt_a")
            #expect(entry.deliveryID == "dlv_a")
            // b's retry is due at minute 60: only the revived dead letter is due now.
            let due = try await store.dueDeliveries(now: R.at(50))
            #expect(due.map(\.deliveryID) == ["dlv_a"])
            #expect(due.first?.firstAttemptAt == nil)
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 1, retrying: 1, dead: 1))
        }
    }

    @Test("a retried pending delivery is due now and keeps its attempts", arguments: StoreKind.allCases)
    func retryPending(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let entry = try await store.retryDelivery(id: try #require(ids["b"]), at: R.at(5)).entry
            #expect(entry.standing == .retrying)
            #expect(entry.attempts == 1)
            #expect(entry.nextAttemptAt == R.at(5))
            #expect(try await store.dueDeliveries(now: R.at(5)).map(\.deliveryID) == ["dlv_b"])
        }
    }

    @Test("retry --dead brings every dead letter back, or one webhook's", arguments: StoreKind.allCases)
    func retryAllDead(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            _ = try await Self.fill(store)
            let chat = try await store.retryDeadDeliveries(webhook: "chat", at: R.at(10))
            #expect(chat.map(\.deliveryID) == ["dlv_c"])
            #expect(try await store.outboxCounts().dead == 1)
            let rest = try await store.retryDeadDeliveries(at: R.at(10))
            #expect(rest.map(\.deliveryID) == ["dlv_a"])
            #expect(rest.allSatisfy { $0.standing == .pending && $0.attempts == 0 })
            #expect(try await store.retryDeadDeliveries(at: R.at(10)).isEmpty)
            #expect(try await store.outboxCounts() == OutboxCounts(pending: 2, retrying: 1, dead: 0))
        }
    }

    @Test("drop removes an undelivered row and returns what it was", arguments: StoreKind.allCases)
    func drop(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let dropped = try await store.dropDelivery(id: try #require(ids["b"]), at: R.at(9))
            #expect(dropped.standing == .retrying)
            #expect(dropped.subject == "alert.firing b.example.com origin.status")
            #expect(try await store.outboxEntry(id: try #require(ids["b"])) == nil)
            #expect(try await store.reader.outbox(OutboxFilter()).total == 2)
        }
    }

    @Test("an unknown id and a delivered one are refused, and nothing changes", arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let before = try await store.allDeliveries()
            let unknown = await #expect(throws: OutboxRefusal.self) {
                try await store.retryDelivery(id: 999, at: R.at(9))
            }
            #expect(unknown?.reason == .unknown)
            #expect(unknown?.description == "no delivery 999 in the outbox (outbox list shows the ids)")
            let dropUnknown = await #expect(throws: OutboxRefusal.self) {
                try await store.dropDelivery(id: 999, at: R.at(9))
            }
            #expect(dropUnknown?.reason == .unknown)
            let delivered = try #require(ids["d"])
            let retried = await #expect(throws: OutboxRefusal.self) {
                try await store.retryDelivery(id: delivered, at: R.at(9))
            }
            #expect(retried?.reason == .delivered)
            #expect(retried?.description.contains("was delivered at") == true)
            let dropped = await #expect(throws: OutboxRefusal.self) {
                try await store.dropDelivery(id: delivered, at: R.at(9))
            }
            #expect(dropped?.reason == .delivered)
            #expect(try await store.allDeliveries() == before)
        }
    }

    @Test(
        "a row whose attempt is on the wire is neither dropped nor retried until the attempt ends or its mark expires",
        arguments: StoreKind.allCases)
    func sending(kind: StoreKind) async throws {
        try await withTemporaryStore(kind) { store, _ in
            let ids = try await Self.fill(store)
            let id = try #require(ids["b"])
            #expect(try await store.beginAttempt(id: id, until: R.at(20)))
            let dropped = await #expect(throws: OutboxRefusal.self) {
                try await store.dropDelivery(id: id, at: R.at(9))
            }
            #expect(dropped?.reason == .sending(until: R.at(20)))
            #expect(dropped?.description.contains("is being sent right now") == true, "\(String(describing: dropped))")
            let retried = await #expect(throws: OutboxRefusal.self) {
                try await store.retryDelivery(id: id, at: R.at(9))
            }
            #expect(retried?.reason == .sending(until: R.at(20)))
            // The attempt ends: the mark goes with it, and the row can be dropped.
            try await store.markRetry(id: id, at: R.at(10), nextAttemptAt: R.at(60), status: 500, error: nil)
            #expect(try await store.dropDelivery(id: id, at: R.at(11)).deliveryID == "dlv_b")
            // A mark left by a crash expires by itself.
            try await store.enqueue([Self.insert("e")])
            let other = try #require(try await store.allDeliveries().first { $0.deliveryID == "dlv_e" }?.id)
            #expect(try await store.beginAttempt(id: other, until: R.at(20)))
            #expect(try await store.dropDelivery(id: other, at: R.at(21)).deliveryID == "dlv_e")
            // A dropped row is not begun: the deliverer must not send it.
            #expect(try await store.beginAttempt(id: other, until: R.at(40)) == false)
        }
    }

    @Test("a stored event that cannot be read is listed as unreadable, not skipped")
    func unreadableEvent() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.enqueue([
                OutboxInsert(
                    deliveryID: "x", eventID: "evt_x", webhook: "ops", eventJSON: Data("not json".utf8),
                    createdAt: R.at(0), nextAttemptAt: R.at(0))
            ])
            let entry = try #require(try await store.reader.outbox(OutboxFilter()).deliveries.first)
            #expect(entry.eventType == "unreadable")
            #expect(entry.subject == "unreadable")
        }
    }

    @Test("the JSON has every key, null when absent, times in RFC 3339")
    func json() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            _ = try await Self.fill(store)
            let listing = try await store.reader.outbox(OutboxFilter(deadOnly: true, limit: 1))
            let data = try MonitorJSON.encoder().encode(listing)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["total"] as? Int == 2)
            let row = try #require((object["deliveries"] as? [[String: Any]])?.first)
            #expect(
                Set(row.keys) == [
                    "id", "state", "webhook", "event_id", "delivery_id", "event_type", "domain", "code", "attempts",
                    "created_at", "next_attempt_at", "last_status", "last_error", "finished_at",
                ])
            #expect(row["state"] as? String == "dead")
            #expect(row["next_attempt_at"] is NSNull)
            #expect(row["finished_at"] as? String == RFC3339.string(R.at(2)))
        }
    }
}

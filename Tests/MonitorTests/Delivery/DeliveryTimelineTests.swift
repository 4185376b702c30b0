import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// Delivery through the real engine to a fixture receiver, on a clock the test moves: `give_up_after` is wall
/// time however fast the receiver refuses, and a receiver that recovers gets every pending delivery at once.
@Suite("Delivery timeline through the real engine", .endToEndSlot)
struct DeliveryTimelineTests {
    /// Runs `body` with a receiver at `/hook` that answers 503 (with `Retry-After: 1` when `retryAfter`) until
    /// it has recovered.
    func withReceiver(
        retryAfter: Bool,
        _ body: (FixtureServer, Recovery, WebhookConfiguration) async throws -> Void
    ) async throws {
        let recovered = Recovery()
        try await withFixtureServer(
            certificate: .valid(for: "localhost"),
            routes: [
                FixtureRoute("/hook") { _ in
                    recovered.done
                        ? .text("ok") : .text("busy", status: 503, headers: retryAfter ? [("Retry-After", "1")] : [])
                }
            ]
        ) { server in
            var webhook = WebhookConfiguration(name: "ops", url: "https://localhost:\(server.port)/hook")
            webhook.caFile = server.caFile
            try await body(server, recovered, webhook)
        }
    }

    /// Whether the receiver has recovered.
    final class Recovery: Sendable {
        private let state = Mutex(false)
        var done: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    @Test("Retry-After: 1 makes many attempts, and none is dead before give_up_after has passed")
    func retryAfterTimeline() async throws {
        try await withReceiver(retryAfter: true) { server, _, webhook in
            try await withCurlEngine { engine in
                let store = try await MonitorStore.inMemory()
                let clock = TestClock()
                let first = clock.now
                for id in ["a", "b", "c"] { try await OutboxDelivererTests.enqueue(store, id: id, at: first) }
                let deliverer = OutboxDeliverer(
                    store: store, transport: engine, logger: CapturedLog().logger(label: "d"), clock: clock.function)
                let policy = DeliveryPolicy(giveUpAfter: 60)
                while let next = try await store.nextAttemptTime() {
                    clock.set(next)
                    let pass = try await deliverer.deliverDue(webhooks: [webhook], policy: policy)
                    #expect(pass.attempted > 0)
                    for row in try await store.allDeliveries() where row.state == .dead {
                        #expect(clock.now.timeIntervalSince(first) >= 60, "\(row.deliveryID) dead early")
                    }
                    try #require(server.requests.count < 1_000)
                }
                let rows = try await store.allDeliveries()
                #expect(rows.allSatisfy { $0.state == .dead && $0.attempts >= 50 }, "\(rows.map(\.attempts))")
                #expect(rows.allSatisfy { $0.lastError?.contains("gave up after") == true })
            }
        }
    }

    @Test("after the receiver recovers, every pending delivery goes out at the first success, not a backoff later")
    func recovery() async throws {
        try await withReceiver(retryAfter: false) { server, recovered, webhook in
            try await withCurlEngine { engine in
                let store = try await MonitorStore.inMemory()
                let clock = TestClock()
                for index in 0..<12 { try await OutboxDelivererTests.enqueue(store, id: "m\(index)", at: clock.now) }
                var deliverer = OutboxDeliverer(
                    store: store, transport: engine, logger: CapturedLog().logger(label: "d"), clock: clock.function)
                deliverer.parallelism = 4
                // A long outage: backoffs grow to minutes and drift apart with their jitter.
                let policy = DeliveryPolicy(giveUpAfter: 86_400)
                var failures = 0
                while failures < 60, let next = try await store.nextAttemptTime() {
                    clock.set(next)
                    failures += try await deliverer.deliverDue(webhooks: [webhook], policy: policy).attempted
                }
                recovered.done = true
                let firstSuccess = try #require(try await store.nextAttemptTime())
                clock.set(firstSuccess)
                // From now on the clock stands still: what goes out, goes out at the first success.
                var passes = 0
                while try await !store.dueDeliveries(now: clock.now).isEmpty {
                    _ = try await deliverer.deliverDue(webhooks: [webhook], policy: policy)
                    passes += 1
                    try #require(passes < 20)
                }
                let rows = try await store.allDeliveries()
                #expect(rows.allSatisfy { $0.state == .delivered }, "\(rows.map { ($0.deliveryID, $0.state) })")
                #expect(server.requests.count >= 60 + 12)
            }
        }
    }
}

import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import Testing

/// The delivery glue without a network: a scripted transport, an in-memory store and a hand-moved clock. Each
/// failure kind goes in, and the outbox row (state, attempts, next attempt, last error) comes out.
@Suite("Outbox delivery: failure kind in, outbox row out")
struct OutboxDelivererTests {
    static let token = "T0KEN5ecret9f8e7d6c"
    static let url = "https://hooks.example.test/services/\(token)?key=\(token)"
    static let hook = WebhookConfiguration(name: "ops", url: url)
    static let policy = DeliveryPolicy(baseDelay: 5, maxDelay: 3_600, maxRetryAfter: 21_600, giveUpAfter: 3_600)

    /// What a pass must leave in the row.
    struct Expected: Sendable, CustomStringConvertible {
        var state: OutboxState
        var attempts: Int
        /// Seconds from the attempt to the next one (pending rows only).
        var nextIn: Double?
        var lastStatus: Int?
        /// Text the row's `last_error` starts with.
        var errorPrefix: String?
        var description: String { "\(state) after \(attempts) attempt(s)" }
    }

    /// A failure kind: the transport's answer and the row it must give.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var step: ScriptedTransport.Step
        var webhook = OutboxDelivererTests.hook
        var expected: Expected
        var description: String { name }
    }

    static func failure(_ kind: HTTPFailure.Kind, code: Int, message: String) -> ScriptedTransport.Step {
        .failure(HTTPFailure(kind: kind, url: url, curlCode: code, curlMessage: message))
    }

    static func engineError(_ code: HTTPEngineError.Code, _ message: String) -> ScriptedTransport.Step {
        .failure(HTTPEngineError(code: code, url: url, message: message))
    }

    static var cases: [Case] {
        var badSecret = hook
        badSecret.secret = WebhookSecret(text: "whsec_!!", key: [])
        return [
            Case(name: "2xx", step: .status(204), expected: Expected(state: .delivered, attempts: 1, lastStatus: 204)),
            Case(
                name: "503 with Retry-After", step: .status(503, headers: ["Retry-After": "30"], body: "busy"),
                expected: Expected(
                    state: .pending, attempts: 1, nextIn: 30, lastStatus: 503,
                    errorPrefix: "the answer's body: 4 bytes, not kept")),
            Case(
                name: "500", step: .status(500),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, lastStatus: 500)),
            Case(
                name: "404 echoing the URL", step: .status(404, body: "Cannot POST /services/\(token)?key=\(token)"),
                expected: Expected(state: .dead, attempts: 1, lastStatus: 404, errorPrefix: "the receiver answered 404")
            ),
            Case(
                name: "refused", step: failure(.connect, code: 7, message: "Failed to connect: Connection refused"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "connect: Failed")),
            Case(
                name: "TLS untrusted", step: failure(.tlsUntrusted, code: 60, message: "SSL certificate problem"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "tls.untrusted:")),
            Case(
                name: "TLS protocol", step: failure(.tlsProtocol, code: 35, message: "wrong version number"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "tls.protocol:")),
            Case(
                name: "timeout echoing the URL",
                step: failure(.timeout, code: 28, message: "timed out fetching \(url)"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "timeout:")),
            Case(
                name: "missing CA file (ours)",
                step: engineError(.trustStore, "cannot read extra CA file '/etc/missing.pem'"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "trust_store:")),
            Case(
                name: "option rejected (ours)", step: engineError(.invalidRequest, "libcurl rejected CURLOPT_URL"),
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "invalid_request:")),
            Case(
                name: "signer refusing the key (ours)", step: .status(200), webhook: badSecret,
                expected: Expected(state: .pending, attempts: 1, nextIn: 5, errorPrefix: "signing:")),
            Case(
                name: "engine shut down", step: engineError(.shutDown, "the HTTP engine was shut down"),
                expected: Expected(state: .pending, attempts: 0, nextIn: 0)),
            Case(
                name: "cancelled", step: .failure(CancellationError()),
                expected: Expected(state: .pending, attempts: 0, nextIn: 0)),
        ]
    }

    /// An outbox with one due delivery of a test event to `webhook`.
    static func enqueue(
        _ store: MonitorStore, id: String = "msg_1", webhook: String = "ops", at time: Date
    ) async throws {
        let event = MonitorEvent.test(id: "evt_\(id)", domain: "shop.example", at: time)
        try await store.enqueue([
            OutboxInsert(
                deliveryID: id, eventID: event.id, webhook: webhook, eventJSON: try MonitorJSON.encoder().encode(event),
                createdAt: time, nextAttemptAt: time)
        ])
    }

    @Test("each failure kind gives its outbox row, and no text anywhere carries the URL", arguments: cases)
    func failureKinds(_ test: Case) async throws {
        let store = try await MonitorStore.inMemory()
        let clock = TestClock()
        let log = CapturedLog()
        try await Self.enqueue(store, at: clock.now)
        let transport = ScriptedTransport([test.step])
        let deliverer = OutboxDeliverer(
            store: store, transport: transport, logger: log.logger(label: "delivery"), clock: clock.function,
            random: { 0.999_999 })
        let pass = try await deliverer.deliverDue(webhooks: [test.webhook], policy: Self.policy)
        let row = try #require(try await store.allDeliveries().first)
        #expect(row.state == test.expected.state)
        #expect(row.attempts == test.expected.attempts)
        #expect(row.lastStatus == test.expected.lastStatus)
        if let seconds = test.expected.nextIn, row.state == .pending {
            #expect(abs(row.nextAttemptAt.timeIntervalSince(clock.now) - seconds) < 0.01)
        }
        if let prefix = test.expected.errorPrefix {
            #expect(row.lastError?.hasPrefix(prefix) == true, "\(row.lastError ?? "nil")")
        }
        #expect(pass.stopped == (test.expected.attempts == 0))
        for text in log.all + [row.lastError ?? ""] {
            #expect(!text.contains(Self.token), "\(text)")
            // Only the answer's size is kept, never its words (issue 32 §9).
            #expect(!text.contains("busy") && !text.contains("Cannot POST"), "\(text)")
        }
        if test.expected.attempts > 0 {
            #expect(log.all.count == 1, "one line per attempt: \(log.all)")
        }
        // The pass is done with this row: another one at the same instant sends nothing.
        let again = try await deliverer.deliverDue(webhooks: [test.webhook], policy: Self.policy)
        #expect(again.attempted == 0 || test.expected.attempts == 0)
    }

    @Test("the log lines carry webhook, event, domain and attempt as fields")
    func logFields() async throws {
        let store = try await MonitorStore.inMemory()
        let clock = TestClock()
        let log = CapturedLog()
        try await Self.enqueue(store, at: clock.now)
        let deliverer = OutboxDeliverer(
            store: store, transport: ScriptedTransport([.status(500), .status(200)]),
            logger: log.logger(label: "delivery"), clock: clock.function)
        _ = try await deliverer.deliverDue(webhooks: [Self.hook], policy: Self.policy)
        clock.advance(10)
        _ = try await deliverer.deliverDue(webhooks: [Self.hook], policy: Self.policy)
        #expect(log.all.count == 2)
        #expect(log.all.first?.hasPrefix("delivery: delivery failed, will retry") == true)
        let delivered = try #require(log.all.last)
        #expect(delivered.hasPrefix("delivery: delivered "))
        for field in ["webhook=ops", "event=test", "domain=shop.example", "attempt=2", "status=200"] {
            #expect(delivered.contains(field), "\(delivered)")
        }
    }

    @Test("a delivery removed from the configuration is dead with that reason")
    func unknownWebhook() async throws {
        let store = try await MonitorStore.inMemory()
        let clock = TestClock()
        try await Self.enqueue(store, webhook: "gone", at: clock.now)
        let deliverer = OutboxDeliverer(
            store: store, transport: ScriptedTransport([.status(200)]), logger: CapturedLog().logger(label: "d"),
            clock: clock.function)
        _ = try await deliverer.deliverDue(webhooks: [Self.hook], policy: Self.policy)
        let row = try #require(try await store.allDeliveries().first)
        #expect(row.state == .dead)
        #expect(row.lastError == "webhook gone is no longer configured")
    }

    @Test(
        "give_up_after is wall time from the first attempt: never dead before, whatever Retry-After and quick failures",
        arguments: [
            ScriptedTransport.Step.status(503, headers: ["Retry-After": "1"]),
            failure(.connect, code: 7, message: "refused"),
        ])
    func timeline(step: ScriptedTransport.Step) async throws {
        let store = try await MonitorStore.inMemory()
        let clock = TestClock()
        let first = clock.now
        try await Self.enqueue(store, at: first)
        let policy = DeliveryPolicy(giveUpAfter: 1_800)
        let deliverer = OutboxDeliverer(
            store: store, transport: ScriptedTransport([step]), logger: CapturedLog().logger(label: "d"),
            clock: clock.function)
        var passes = 0
        while let row = try await store.allDeliveries().first, row.state == .pending {
            clock.set(row.nextAttemptAt)
            #expect(clock.now.timeIntervalSince(first) <= 1_800, "an attempt planned after the budget")
            let pass = try await deliverer.deliverDue(webhooks: [Self.hook], policy: policy)
            #expect(pass.attempted == 1)
            passes += 1
            try #require(passes < 5_000)
        }
        let row = try #require(try await store.allDeliveries().first)
        #expect(row.state == .dead)
        #expect(clock.now.timeIntervalSince(first) >= 1_800, "dead after \(passes) attempts, before the budget")
        #expect(row.firstAttemptAt == first)
    }

    @Test("when a receiver takes one delivery, its other pending deliveries are due at once; others' are not")
    func wakeOnSuccess() async throws {
        let store = try await MonitorStore.inMemory()
        let clock = TestClock()
        let other = WebhookConfiguration(name: "other", url: "https://other.example.test/hook")
        for id in ["msg_1", "msg_2", "msg_3"] {
            try await Self.enqueue(store, id: id, at: clock.now)
            try await Self.enqueue(store, id: "\(id)_other", webhook: "other", at: clock.now)
        }
        let transport = ScriptedTransport([.status(503)])
        let spread = SpreadRandom()
        var deliverer = OutboxDeliverer(
            store: store, transport: transport, logger: CapturedLog().logger(label: "d"), clock: clock.function,
            random: { spread.next() })
        deliverer.parallelism = 1
        // Every delivery fails a few times: their backoffs grow apart.
        for _ in 0..<12 {
            _ = try await deliverer.deliverDue(webhooks: [Self.hook, other], policy: Self.policy)
            if let next = try await store.nextAttemptTime() { clock.set(next) }
        }
        transport.answer([.status(200)])
        let before = Dictionary(uniqueKeysWithValues: try await store.allDeliveries().map { ($0.deliveryID, $0) })
        _ = try await deliverer.deliverDue(webhooks: [Self.hook, other], policy: Self.policy)
        let rows = try await store.allDeliveries()
        let delivered = try #require(rows.first { $0.state == .delivered })
        for row in rows where row.state == .pending {
            if row.webhook == delivered.webhook {
                #expect(row.nextAttemptAt <= clock.now, "\(row.deliveryID) still waits")
            } else {
                #expect(row.nextAttemptAt == before[row.deliveryID]?.nextAttemptAt, "\(row.deliveryID) was woken")
            }
        }
        let sameReceiver = rows.filter { $0.webhook == delivered.webhook && $0.state == .pending }
        #expect(sameReceiver.allSatisfy { before[$0.deliveryID].map { $0.nextAttemptAt > clock.now } == true })
        #expect(!sameReceiver.isEmpty)
    }
}

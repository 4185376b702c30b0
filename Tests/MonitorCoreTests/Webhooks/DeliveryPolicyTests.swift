import AASA
import Foundation
import MonitorCore
import Testing

@Suite("Delivery policy: retries, backoff, Retry-After, dead letters")
struct DeliveryPolicyTests {
    static let first = Date(timeIntervalSince1970: 1_800_000_000)
    static let policy = DeliveryPolicy(baseDelay: 5, maxDelay: 3_600, maxRetryAfter: 21_600, giveUpAfter: 86_400)

    static func decide(
        _ outcome: DeliveryOutcome, attempt: Int = 1, after elapsed: Double = 0, retryAfter: String? = nil,
        random: Double = 1
    ) -> DeliveryDecision {
        policy.decide(
            outcome, attempt: attempt, firstAttemptAt: first, now: first.addingTimeInterval(elapsed),
            retryAfter: retryAfter, random: { random })
    }

    static func retryDelay(_ decision: DeliveryDecision, elapsed: Double = 0) -> Double? {
        if case .retry(let at) = decision { return at.timeIntervalSince(first) - elapsed }
        return nil
    }

    @Test("2xx is delivered", arguments: [200, 202, 204])
    func delivered(status: Int) {
        #expect(Self.decide(.status(status)) == .delivered)
    }

    @Test("4xx other than 408 and 429 is dead at once", arguments: [400, 401, 404, 410, 422])
    func deadAtOnce(status: Int) {
        guard case .dead(let reason) = Self.decide(.status(status)) else {
            Issue.record("\(status) should be dead")
            return
        }
        #expect(reason.contains(String(status)))
    }

    @Test(
        "408, 429, 5xx and transport failures retry with exponential backoff",
        arguments: [
            (DeliveryOutcome.status(408), 1, 5.0), (.status(429), 2, 10), (.status(500), 3, 20),
            (.status(503), 4, 40), (.transportFailure("connect: refused"), 1, 5), (.status(502), 20, 3_600),
        ])
    func retries(outcome: DeliveryOutcome, attempt: Int, delay: Double) {
        #expect(Self.retryDelay(Self.decide(outcome, attempt: attempt)) == delay)
    }

    @Test("equal jitter keeps at least half the backoff")
    func jitter() {
        #expect(Self.retryDelay(Self.decide(.status(500), attempt: 3, random: 0)) == 10)
        #expect(Self.retryDelay(Self.decide(.status(500), attempt: 3, random: 0.5)) == 15)
    }

    @Test(
        "Retry-After is honoured as seconds or HTTP-date, at least 1 second (no hot loop), capped at 6 hours",
        arguments: [
            ("120", 120.0), ("  30 ", 30), ("Fri, 15 Jan 2027 08:02:00 GMT", 120), ("999999", 21_600),
            ("Sun, 06 Nov 1994 08:49:37 GMT", 1), ("0", 1), ("soon", 5),
        ])
    func retryAfter(header: String, delay: Double) {
        #expect(Self.retryDelay(Self.decide(.status(429), retryAfter: header)) == delay)
    }

    @Test("a retry that would land after the give-up age is dead instead")
    func givesUp() {
        #expect(Self.retryDelay(Self.decide(.status(500), attempt: 30, after: 82_000), elapsed: 82_000) == 3_600)
        guard case .dead(let reason) = Self.decide(.status(500), attempt: 31, after: 83_000) else {
            Issue.record("should give up")
            return
        }
        #expect(reason.contains("500"))
        guard case .dead = Self.decide(.status(429), after: 80_000, retryAfter: "7200") else {
            Issue.record("a Retry-After past the give-up age should give up")
            return
        }
    }
}

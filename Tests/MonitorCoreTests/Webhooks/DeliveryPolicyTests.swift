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

    @Test("a retry that would land after the give-up age is cut to the end of the budget, and dead only then")
    func givesUp() {
        #expect(Self.retryDelay(Self.decide(.status(500), attempt: 30, after: 82_000), elapsed: 82_000) == 3_600)
        #expect(Self.retryDelay(Self.decide(.status(500), attempt: 31, after: 83_000), elapsed: 83_000) == 3_400)
        #expect(
            Self.retryDelay(Self.decide(.status(429), after: 80_000, retryAfter: "7200"), elapsed: 80_000) == 6_400,
            "a Retry-After past the budget is cut to its end")
        guard case .dead(let reason) = Self.decide(.status(500), attempt: 32, after: 86_400) else {
            Issue.record("should give up once the budget is spent")
            return
        }
        #expect(reason.contains("500"))
        #expect(reason.contains("32 attempt(s)"))
    }

    @Test(
        "give_up_after is wall time: quick failures and short Retry-Afters never end a delivery early",
        arguments: [
            (DeliveryOutcome.transportFailure("connect: refused"), "1" as String?), (.status(503), "1"),
            (.status(500), nil),
        ])
    func wallTimeBudget(outcome: DeliveryOutcome, retryAfter: String?) throws {
        let policy = DeliveryPolicy(giveUpAfter: 1_800)
        var now = Self.first
        var attempt = 1
        while true {
            let decision = policy.decide(
                outcome, attempt: attempt, firstAttemptAt: Self.first, now: now, retryAfter: retryAfter,
                random: { 0.5 })
            switch decision {
            case .retry(let next):
                #expect(next > now)
                #expect(next.timeIntervalSince(Self.first) <= 1_800, "no retry is planned after the budget")
                now = next
                attempt += 1
            case .dead:
                #expect(now.timeIntervalSince(Self.first) >= 1_800, "dead after \(attempt) attempts, early")
                return
            case .delivered:
                Issue.record("a failure was delivered")
                return
            }
            try #require(attempt < 5_000, "never gave up")
        }
    }
}

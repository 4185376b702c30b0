import Foundation
import MonitorEvaluation

/// How one delivery attempt ended, as the delivery shell saw it.
public enum DeliveryOutcome: Sendable, Hashable {
    /// The receiver answered with this HTTP status.
    case status(Int)
    /// No answer: DNS, connect, TLS, timeout, or a failure of our own before anything was sent (unreadable
    /// trust anchors, a signer refusing its key); the text says which. Retried with backoff: a receiver that comes
    /// back, or a configuration fixed by a reload, makes the next attempt succeed.
    case transportFailure(String)
}

/// What to do with a delivery after an attempt.
public enum DeliveryDecision: Sendable, Hashable {
    /// The receiver took it (2xx): done.
    case delivered
    /// Try again at this time; the same delivery ID, a new timestamp and signature.
    case retry(at: Date)
    /// Give up: a 4xx the receiver will not change its mind about, or the give-up age is reached. Kept as
    /// dead-letter for `status` and manual replay.
    case dead(reason: String)
}

/// The pure retry rules of the outbox: at-least-once, exponential backoff with jitter, `Retry-After` honoured.
///
/// - 2xx: delivered. 408, 429, 5xx and transport failures: retry. Any other status: dead at once (retrying a
///   400 or 404 sends the same bytes to the same answer).
/// - Backoff after attempt n (1-based): `baseDelay · 2^(n−1)`, capped at `maxDelay`, with equal jitter (half
///   fixed, half random), so a receiver that comes back is not hit by every monitor at once.
/// - `Retry-After` (delta-seconds or HTTP-date) replaces the backoff, capped at `maxRetryAfter`.
/// - `giveUpAfter` is wall time since the first attempt, whatever the number of attempts: a failure before that
///   time is always retried, at the latest exactly when the budget ends (the delay is cut to what is left), and
///   the first failure at or after it is dead. Quick failures and short `Retry-After`s cannot end a delivery early.
public struct DeliveryPolicy: Sendable, Hashable, Codable {
    public var baseDelay: Double
    public var maxDelay: Double
    public var maxRetryAfter: Double
    /// Seconds after the first attempt when a delivery is given up (default 24 h).
    public var giveUpAfter: Double

    public init(
        baseDelay: Double = 5, maxDelay: Double = 3_600, maxRetryAfter: Double = 21_600,
        giveUpAfter: Double = 86_400
    ) {
        self.baseDelay = max(0.001, baseDelay)
        self.maxDelay = max(self.baseDelay, maxDelay)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.giveUpAfter = max(0, giveUpAfter)
    }

    enum CodingKeys: String, CodingKey {
        case baseDelay = "base_delay"
        case maxDelay = "max_delay"
        case maxRetryAfter = "max_retry_after"
        case giveUpAfter = "give_up_after"
    }

    /// The decision after attempt number `attempt` (1 for the first) ended with `outcome` at `now`.
    ///
    /// - Parameter random: a value in [0, 1) for the jitter; injected so tests are deterministic.
    public func decide(
        _ outcome: DeliveryOutcome, attempt: Int, firstAttemptAt: Date, now: Date, retryAfter: String?,
        random: () -> Double
    ) -> DeliveryDecision {
        let problem: String
        switch outcome {
        case .status(let status) where (200...299).contains(status):
            return .delivered
        case .status(let status) where status == 408 || status == 429 || (500...599).contains(status):
            problem = "the receiver answered \(status)"
        case .status(let status):
            return .dead(reason: "the receiver answered \(status), which a retry will not change")
        case .transportFailure(let text):
            problem = "no answer (\(text))"
        }
        let elapsed = now.timeIntervalSince(firstAttemptAt)
        guard elapsed < giveUpAfter else {
            return .dead(
                reason: "gave up after \(attempt) attempt(s) over \(DurationText.describe(max(0, elapsed))) "
                    + "(give_up_after \(DurationText.describe(giveUpAfter))); last: \(problem)")
        }
        let delay =
            // Never sooner than one second: `Retry-After: 0` or a past date would otherwise retry in a hot loop.
            retryAfter.flatMap { Self.retryAfterSeconds($0, now: now) }.map { min(max($0, 1), maxRetryAfter) }
            ?? backoff(attempt: attempt, random: random)
        // The last attempt lands when the budget ends, not a backoff step after it.
        let remaining = giveUpAfter - elapsed
        return .retry(at: now.addingTimeInterval(max(min(delay, remaining), min(1, remaining))))
    }

    /// Equal jitter: half the exponential delay fixed, half random.
    func backoff(attempt: Int, random: () -> Double) -> Double {
        let exponent = Double(min(max(attempt, 1) - 1, 40))
        let full = min(maxDelay, baseDelay * pow(2, exponent))
        let unit = min(max(random(), 0), 1)
        return full / 2 + unit * full / 2
    }

    /// `Retry-After` as seconds from `now`: delta-seconds (`120`) or an HTTP-date (`Sun, 06 Nov 1994 08:49:37
    /// GMT`, RFC 9110 §10.2.3); `nil` when unreadable. A date in the past means "now" (0).
    public static func retryAfterSeconds(_ header: String, now: Date) -> Double? {
        let value = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(value) { return seconds >= 0 ? Double(seconds) : nil }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

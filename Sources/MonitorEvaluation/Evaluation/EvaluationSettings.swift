import Foundation

/// The thresholds evaluation applies; all come from configuration or `check` options.
public struct EvaluationSettings: Sendable, Hashable {
    /// A valid certificate expiring sooner than this is `origin.tls.expiring`.
    public var expiryWarning: TimeInterval
    /// A `cdn.stale` warning older than this becomes an error.
    public var staleAfter: TimeInterval
    /// A complete answer slower than this is an `origin.slow` warning: it nears Apple's budget.
    public var slowThreshold: TimeInterval
    /// How long Apple's fetcher waits for the origin (`http.apple_budget`, default 5 s: Apple publishes none; 5 s is
    /// what timeouts are observed near). A slower answer is an `origin.slow` error: Apple gives up.
    public var appleBudget: TimeInterval
    /// A certificate expiring sooner than this is an `origin.tls.expiring` error, not a warning: an expired
    /// certificate breaks Apple's fetch (`expiry_critical`, default 3 days).
    public var expiryCritical: TimeInterval

    public init(
        expiryWarning: TimeInterval = 14 * 86_400, staleAfter: TimeInterval = 86_400, slowThreshold: TimeInterval = 4,
        appleBudget: TimeInterval = 5, expiryCritical: TimeInterval = 3 * 86_400
    ) {
        self.expiryWarning = expiryWarning
        self.staleAfter = staleAfter
        self.slowThreshold = min(slowThreshold, appleBudget)
        self.appleBudget = appleBudget
        self.expiryCritical = expiryCritical
    }
}

/// What evaluation needs to know from earlier checks: the daemon passes it from the store, `check` passes none.
public struct EvaluationContext: Sendable, Hashable {
    /// Since when Apple's copy has differed from the origin's current meaning, if it already did before this check.
    public var staleSince: Date?
    /// When an earlier check saw the origin change to its current meaning (never the first sight of it: that says
    /// nothing about when it appeared). Apple's failure reason from an answer cached before then is about an older
    /// origin (one since fixed), so it is not believed.
    public var originSince: Date?

    public init(staleSince: Date? = nil, originSince: Date? = nil) {
        self.staleSince = staleSince
        self.originSince = originSince
    }
}

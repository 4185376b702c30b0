import Foundation

/// The thresholds evaluation applies; all come from configuration or `check` options.
public struct EvaluationSettings: Sendable, Hashable {
    /// A valid certificate expiring sooner than this is `origin.tls.expiring`.
    public var expiryWarning: TimeInterval
    /// A `cdn.stale` warning older than this becomes an error.
    public var staleAfter: TimeInterval
    /// A complete answer slower than this is `origin.slow` (Apple's fetcher gives up near 5 s).
    public var slowThreshold: TimeInterval

    public init(
        expiryWarning: TimeInterval = 14 * 86_400, staleAfter: TimeInterval = 86_400, slowThreshold: TimeInterval = 4
    ) {
        self.expiryWarning = expiryWarning
        self.staleAfter = staleAfter
        self.slowThreshold = slowThreshold
    }
}

/// What evaluation needs to know from earlier checks: the daemon passes it from the store, `check` passes none.
public struct EvaluationContext: Sendable, Hashable {
    /// Since when Apple's copy has differed from the origin's current meaning, if it already did before this check.
    public var staleSince: Date?

    public init(staleSince: Date? = nil) {
        self.staleSince = staleSince
    }
}

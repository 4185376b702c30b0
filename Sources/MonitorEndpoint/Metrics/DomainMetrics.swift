import Foundation
import MonitorCore
import MonitorEvaluation

/// What the metrics endpoint says about one domain: its latest state and how many checks ended in each verdict.
///
/// A plain value read from the store (or the scheduler's memory) when `/metrics` is scraped; `nil` fields are left
/// out of the exposition instead of being reported as 0, which would look like a real measurement.
package struct DomainMetrics: Sendable, Hashable {
    /// The domain as configured (A-label).
    package var domain: String
    /// The verdict of the latest check.
    package var verdict: Verdict
    /// Whether Apple's CDN serves the origin's current meaning; `nil` before the CDN was asked.
    package var cdnInSync: Bool?
    /// How long Apple's copy has lagged behind the origin's current meaning, in seconds; `nil` when in sync.
    package var staleSeconds: Double?
    /// When the origin's TLS certificate expires.
    package var certificateNotAfter: Date?
    /// When the latest check finished.
    package var lastCheck: Date?
    /// How long the latest check took, in seconds.
    package var lastCheckDuration: Double?
    /// The latest measured delay from an origin change to Apple serving it, in seconds.
    package var lastPropagationDelay: Double?
    /// How many checks ended in each verdict, counted since a fixed origin (process start or the first stored
    /// check) so that the numbers only grow, as a Prometheus counter must.
    package var checksByVerdict: [Verdict: Int]

    /// Creates the metrics of one domain; only the domain and verdict are required.
    package init(
        domain: String,
        verdict: Verdict,
        cdnInSync: Bool? = nil,
        staleSeconds: Double? = nil,
        certificateNotAfter: Date? = nil,
        lastCheck: Date? = nil,
        lastCheckDuration: Double? = nil,
        lastPropagationDelay: Double? = nil,
        checksByVerdict: [Verdict: Int] = [:]
    ) {
        self.domain = domain
        self.verdict = verdict
        self.cdnInSync = cdnInSync
        self.staleSeconds = staleSeconds
        self.certificateNotAfter = certificateNotAfter
        self.lastCheck = lastCheck
        self.lastCheckDuration = lastCheckDuration
        self.lastPropagationDelay = lastPropagationDelay
        self.checksByVerdict = checksByVerdict
    }
}

import Foundation

/// What the daemon keeps in memory per domain between checks: a verdict, a few dates and numbers (about 150
/// bytes), never findings, messages or documents, which live in the store.
///
/// Memory then grows with the number of domains by this much, not by the size of what their checks found; the
/// full `DomainState` is loaded from the store inside each check's transaction (`DomainLedger`).
struct DomainSummary: Sendable, Hashable {
    var verdict: Verdict
    var lastCheck: Date
    var lastDuration: Double
    var cdnInSync: Bool?
    var staleSince: Date?
    var originChangedAt: Date?
    var expectedRefresh: Date?
    var certificateNotAfter: Date?
    var lastPropagationDelay: Double?

    init(_ state: DomainState) {
        verdict = state.verdict
        lastCheck = state.lastCheck
        lastDuration = state.lastDuration
        cdnInSync = state.cdnInSync
        staleSince = state.staleSince
        originChangedAt = state.originChangedAt
        expectedRefresh = state.expectedRefresh
        certificateNotAfter = state.certificateNotAfter
        lastPropagationDelay = state.lastPropagationDelay
    }
}

import Foundation

/// Everything one check of one domain saw: the four fetches and when it ran.
public struct DomainObservation: Sendable, Hashable, Codable {
    /// The normalized domain (lower-case A-label).
    public var domain: String
    public var startedAt: Date
    public var finishedAt: Date
    /// `/.well-known/apple-app-site-association` with Apple's user agent: what Apple sees, the source of every
    /// origin finding.
    public var wellKnown: FetchObservation
    /// The same URL with a plain user agent, only compared with `wellKnown` (`origin.bot_blocked`).
    public var wellKnownPlain: FetchObservation?
    /// The legacy `/apple-app-site-association`.
    public var root: FetchObservation?
    /// Apple's CDN copy; `nil` when the CDN was not asked in this check.
    public var cdn: FetchObservation?

    public init(
        domain: String,
        startedAt: Date,
        finishedAt: Date,
        wellKnown: FetchObservation,
        wellKnownPlain: FetchObservation?,
        root: FetchObservation?,
        cdn: FetchObservation?
    ) {
        self.domain = domain
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.wellKnown = wellKnown
        self.wellKnownPlain = wellKnownPlain
        self.root = root
        self.cdn = cdn
    }
}

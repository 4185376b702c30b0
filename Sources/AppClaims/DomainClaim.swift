/// One entry of `com.apple.developer.associated-domains`: `SERVICE:DOMAIN[?mode=MODE]`, parsed.
///
/// `domain` is what the build claims (`*.example.com`); `readDomain` is where Apple and devices read the
/// apple-app-site-association file for it (`example.com`, the wildcard's base), lowercased. A release gate checks
/// `readDomain`; messages quote `entry`.
public struct DomainClaim: Sendable, Hashable, Codable {
    /// The entry exactly as the entitlement holds it.
    public var entry: String
    public var service: AssociatedService
    /// The domain as claimed, wildcard included; may hold control characters (shown escaped by the CLI).
    public var domain: String
    /// The host whose file this claim is judged on: the wildcard's base, lowercased.
    public var readDomain: String
    /// Whether the claim is `*.DOMAIN` (every subdomain).
    public var isWildcard: Bool
    public var mode: ClaimMode

    /// Whether devices read this claim's file through Apple's CDN: only without a mode. `developer` and
    /// `managed` claims are fetched from the origin directly, so only the origin's copy counts for them.
    public var readsThroughAppleCDN: Bool { mode == .standard }

    public init(
        entry: String, service: AssociatedService, domain: String, readDomain: String, isWildcard: Bool,
        mode: ClaimMode
    ) {
        self.entry = entry
        self.service = service
        self.domain = domain
        self.readDomain = readDomain
        self.isWildcard = isWildcard
        self.mode = mode
    }
}

/// The services of the associated-domains entitlement, each read from its own key of the AASA file.
public enum AssociatedService: String, Sendable, Hashable, Codable, CaseIterable {
    /// Universal links: `applinks.details[].appIDs` (or the legacy `appID`).
    case applinks
    /// Shared passwords and passkeys: `webcredentials.apps`.
    case webcredentials
    /// App Clip invocation from links: `appclips.apps`.
    case appclips
    /// Handoff between app and website: `activitycontinuation.apps`.
    case activitycontinuation
}

/// The `?mode=` of a claim.
public enum ClaimMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// No mode: every device, through Apple's CDN.
    case standard
    /// `developer`: only development-signed apps on devices with associated-domains development enabled; the
    /// device fetches the file from the origin. A distribution build's developer claim is ignored by customers.
    case developer
    /// `managed`: only on MDM-managed devices, fetched from the origin.
    case managed
    /// `developer+managed`: both conditions.
    case developerManaged = "developer+managed"

    /// Whether the claim only works in a development-signed build.
    public var needsDevelopmentBuild: Bool { self == .developer || self == .developerManaged }
}

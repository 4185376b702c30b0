import AASA

/// What a team says must hold for a domain before a release: apps that must be listed and URLs that must (or must
/// not) open an app. Evaluated on the origin copy and, separately, on Apple's copy.
public struct Expectations: Sendable, Hashable, Codable {
    public var apps: [ExpectedApp]
    public var urls: [ExpectedURL]
    /// What an app's entitlements say about this domain beyond "list me" (a developer-mode entry in a distribution
    /// build): reported as `expect.app_claim` findings with each check.
    public var claimNotes: [ClaimNote]
    /// Whether devices read this domain's file from the origin only: it is checked only because apps claim it, and
    /// every claim is `?mode=developer` or `?mode=managed`, which devices fetch from the origin directly, never
    /// through Apple's CDN. Apple's copy then decides nothing: its findings are information. A domain a person
    /// named (`check DOMAIN`, `domains:`) or expects something of is judged on both copies.
    public var originOnly: Bool

    public init(
        apps: [ExpectedApp] = [], urls: [ExpectedURL] = [], claimNotes: [ClaimNote] = [], originOnly: Bool = false
    ) {
        self.apps = apps
        self.urls = urls
        self.claimNotes = claimNotes
        self.originOnly = originOnly
    }

    public var isEmpty: Bool { apps.isEmpty && urls.isEmpty && claimNotes.isEmpty }

    /// Adds `other`'s expectations that are not already here (one domain claimed by several binaries or files).
    /// The domain stays origin-only only when both are: a named domain, or a claim through Apple's CDN, wins.
    public mutating func merge(_ other: Expectations) {
        originOnly = originOnly && other.originOnly
        for app in other.apps where !apps.contains(where: { $0.sameDemand(as: app) }) { apps.append(app) }
        for url in other.urls where !urls.contains(url) { urls.append(url) }
        for note in other.claimNotes where !claimNotes.contains(note) { claimNotes.append(note) }
    }
}

/// An app ID that must be listed in a service (`applinks` unless named: `webcredentials:ABCDE12345.com.example`).
public struct ExpectedApp: Sendable, Hashable, Codable {
    public var service: String
    public var appID: String
    /// Judged on the origin only: a `?mode=developer` or `?mode=managed` claim, which devices fetch from the origin
    /// directly, bypassing Apple's CDN.
    public var originOnly: Bool
    /// Where the expectation comes from when an app claimed it: the app file, the binary and the entitlement entry
    /// (`Shop.ipa Payload/Shop.app: applinks:shop.example.com`); `nil` when a person typed it.
    public var claimedBy: String?

    public init(service: String = "applinks", appID: String, originOnly: Bool = false, claimedBy: String? = nil) {
        self.service = service
        self.appID = appID
        self.originOnly = originOnly
        self.claimedBy = claimedBy
    }

    /// The same app in the same service, whoever asked for it.
    public func sameDemand(as other: ExpectedApp) -> Bool {
        service == other.service && appID == other.appID && originOnly == other.originOnly
    }
}

/// Something an app's entitlement entry says about a domain that no file can fix, with its severity.
public struct ClaimNote: Sendable, Hashable, Codable {
    /// The app reader's code (`app.developer_mode_in_distribution`), kept in the finding's detail.
    public var code: FindingCode
    public var isError: Bool
    public var message: String
    /// The app file, binary and entry (`Shop.ipa Payload/Shop.app: applinks:staging.example.com?mode=developer`).
    public var claimedBy: String

    public init(code: FindingCode, isError: Bool, message: String, claimedBy: String) {
        self.code = code
        self.isError = isError
        self.message = message
        self.claimedBy = claimedBy
    }
}

/// A URL that must resolve to a decision for an app.
public struct ExpectedURL: Sendable, Hashable, Codable {
    public var url: String
    public var appID: String
    public var decision: ExpectedDecision

    public init(url: String, appID: String, decision: ExpectedDecision) {
        self.url = url
        self.appID = appID
        self.decision = decision
    }
}

/// The decision an expected URL must get. `notMatch` is `--expect-no-url`: anything but opening the app.
public enum ExpectedDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case match
    case exclude
    case noMatch = "no_match"
    case notMatch = "not_match"
}

/// What a team says must hold for a domain before a release: apps that must be listed and URLs that must (or must
/// not) open an app. Evaluated on the origin copy and, separately, on Apple's copy.
public struct Expectations: Sendable, Hashable, Codable {
    public var apps: [ExpectedApp]
    public var urls: [ExpectedURL]

    public init(apps: [ExpectedApp] = [], urls: [ExpectedURL] = []) {
        self.apps = apps
        self.urls = urls
    }

    public var isEmpty: Bool { apps.isEmpty && urls.isEmpty }
}

/// An app ID that must be listed in a service (`applinks` unless named: `webcredentials:ABCDE12345.com.example`).
public struct ExpectedApp: Sendable, Hashable, Codable {
    public var service: String
    public var appID: String

    public init(service: String = "applinks", appID: String) {
        self.service = service
        self.appID = appID
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

import Foundation
import MonitorEvaluation

/// What the heartbeat sends, decided from the daemon's health: pure, so the rules are tested without a network.
///
/// - Healthy (checks running on time, the store committing, no `monitor.*` condition): the URL itself.
/// - Unhealthy: the URL with `/fail` appended to its path (healthchecks.io's convention; the query stays), or
///   nothing when `fail_pings` is off, so the external service pages when the pings stop.
/// - Stopping: nothing; a stopped daemon is what the switch exists to notice.
public struct HeartbeatPing: Sendable, Hashable {
    /// The URL to request.
    public var url: String
    /// `nil` when healthy; else why not (the POST body says it).
    public var failure: String?

    public init(url: String, failure: String?) {
        self.url = url
        self.failure = failure
    }

    /// The ping for `health`, or `nil` when none is to be sent.
    public static func decide(failure: String?, settings: HeartbeatConfiguration) -> HeartbeatPing? {
        guard let failure else { return HeartbeatPing(url: settings.url, failure: nil) }
        guard settings.failPings else { return nil }
        return HeartbeatPing(url: failURL(settings.url), failure: failure)
    }

    /// `https://hc-ping.com/UUID/fail` from `https://hc-ping.com/UUID` (or `…/UUID/`, or with a query).
    public static func failURL(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url + "/fail" }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path + "/fail"
        return components.string ?? url + "/fail"
    }

    /// The JSON body of a POST ping.
    public struct Body: Sendable, Hashable, Codable {
        /// `ok` or `fail`.
        public var status: String
        /// Why the daemon is unhealthy; `null` when it is healthy.
        public var reason: String?
        public var version: String
        public var at: String

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(reason, forKey: .reason)
            try container.encode(version, forKey: .version)
            try container.encode(at, forKey: .at)
        }
    }

    public func body(version: String, at now: Date) -> Body {
        Body(status: failure == nil ? "ok" : "fail", reason: failure, version: version, at: RFC3339.string(now))
    }
}

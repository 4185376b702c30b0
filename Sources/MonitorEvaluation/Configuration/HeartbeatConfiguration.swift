import Foundation

/// The `heartbeat` section: a dead man's switch (healthchecks.io, Cronitor, Uptime Kuma's push monitors) that the
/// daemon pings while healthy, so an external service pages when the pings stop.
///
/// The URL is a credential (whoever has it can report the daemon healthy): like a webhook's it comes from `url`,
/// `url_file` or `url_env`, is never shown beyond `scheme://host`, and is held to the same TLS, timeout and
/// private-address rules.
public struct HeartbeatConfiguration: Sendable, Hashable {
    /// How a ping is sent.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// A plain GET, as healthchecks.io and most push monitors take it.
        case get
        /// A POST with a short JSON body (`HeartbeatPing.Body`).
        case post
    }

    public var url: String
    /// How often to ping (`every`, default 1m).
    public var every: Duration = .seconds(60)
    public var method: Method = .get
    /// Whether an unhealthy daemon pings `URL/fail` (healthchecks.io's convention); when off it sends nothing.
    public var failPings = true
    public var timeout: Duration = .seconds(10)
    public var caFile: String?
    public var allowPrivate = false

    public init(url: String) {
        self.url = url
    }
}

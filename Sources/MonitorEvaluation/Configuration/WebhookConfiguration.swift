import AASA

/// One webhook receiver (`webhooks[]`).
///
/// The URL of a chat webhook is its credential, so `description` never shows it, and neither do loader errors.
public struct WebhookConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// A unique name, used in logs, metrics and `webhook test`.
    public var name: String
    /// The http(s) URL events are posted to, from `url`, `url_file` or `url_env`.
    public var url: String
    /// The body shape the receiver understands (`format`, default `standard`).
    public var format: WebhookFormat
    /// The signing secret of `standard` webhooks (`secret`, `secret_file` or `secret_env`); `nil` sends unsigned.
    public var secret: WebhookSecret?
    /// Which events are sent (`events`, default all).
    public var events: Set<WebhookEvent>
    /// Which domains' events are sent (`domains`, normalized); `nil` sends every domain's.
    public var domains: Set<String>?
    /// Whole-request timeout for one delivery attempt (`timeout`, default 10s).
    public var timeout: Duration
    /// An extra trust anchor for this receiver only (an internal CA); the probe's `http.ca_file` never applies to
    /// webhooks.
    public var caFile: String?
    /// Whether the URL may name a link-local or private address such as a cloud metadata service
    /// (`allow_private`, default false): a webhook there would post alerts to, or probe, the machine's own network.
    public var allowPrivate: Bool = false
    /// The least severe alert this receiver hears of (`min_severity`, default `error`): warnings such as a CDN copy a
    /// few minutes behind, or a certificate expiring in two weeks, reach only the webhooks that ask for them.
    /// Informational events (`origin.changed`, `cdn.propagated`) are chosen with `events`, not by severity.
    public var minSeverity: ReportFinding.Severity = .error

    public init(
        name: String, url: String, format: WebhookFormat = .standard, secret: WebhookSecret? = nil,
        events: Set<WebhookEvent> = Set(WebhookEvent.allCases), domains: Set<String>? = nil,
        timeout: Duration = .seconds(10)
    ) {
        self.name = name
        self.url = url
        self.format = format
        self.secret = secret
        self.events = events
        self.domains = domains
        self.timeout = timeout
    }

    /// Whether this webhook wants `event` for `domain`.
    public func wants(_ event: WebhookEvent, domain: String) -> Bool {
        events.contains(event) && (domains?.contains(domain) ?? true)
    }

    /// The name and format only: the URL and secret are credentials.
    public var description: String { "webhook \(name) (\(format.rawValue))" }
}

/// The kinds of event a webhook can subscribe to.
public enum WebhookEvent: String, Sendable, Hashable, CaseIterable, Comparable {
    case alertFiring = "alert.firing"
    case alertResolved = "alert.resolved"
    case originChanged = "origin.changed"
    case cdnPropagated = "cdn.propagated"
    /// The monitor's own conditions (`monitor.cdn_unreachable`, `monitor.network`, `monitor.resources`, `monitor.store`), starting and ending.
    case monitorFiring = "monitor.firing"
    case monitorResolved = "monitor.resolved"

    public static func < (lhs: WebhookEvent, rhs: WebhookEvent) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A webhook signing secret in the `whsec_<base64>` form; the key is the decoded bytes.
///
/// Its `description` is redacted so that logging a configuration can never leak it.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    /// The secret as written, `whsec_…`.
    public var text: String
    /// The decoded key bytes the signature is computed with.
    public var key: [UInt8]

    public init(text: String, key: [UInt8]) {
        self.text = text
        self.key = key
    }

    public var description: String { "whsec_(redacted)" }
}

/// Everything the daemon and its commands read from the YAML configuration, with every default filled in.
///
/// A value type built only by `ConfigurationLoader`, so code that runs the monitor never re-checks what the loader
/// has already validated: names are normalized, URLs are absolute, secrets are resolved. Durations are Swift
/// `Duration`s (whole seconds in the file: `30s`, `15m`, `24h`, `14d`, or combinations like `1h30m`).
public struct MonitorConfiguration: Sendable, Hashable {
    /// Where the SQLite state file lives (`state_dir`); `nil` when the file names none, so the caller decides.
    public var stateDirectory: String?
    /// How often every domain is checked unless the domain overrides it (`interval`, default 15m, at least 10s).
    public var interval: Duration
    /// Where the metrics and health endpoint listens (`listen`); `nil` turns the endpoint off.
    public var listen: ListenAddress?
    /// Access control of that endpoint (`endpoint`); open by default.
    public var endpoint = EndpointSettings()
    /// How origin and CDN requests are made (`http`).
    public var http: HTTPSettings
    /// Certificate checks (`tls`).
    public var tls: TLSSettings
    /// Apple's CDN (`cdn`).
    public var cdn: CDNSettings
    /// How long check history is kept (`retention`, default 90d).
    public var retention: Duration
    /// When alerts fire, repeat and resolve (`alerts`).
    public var alerts: AlertSettings
    /// Where alert events are delivered (`webhooks`), in file order.
    public var webhooks: [WebhookConfiguration]
    /// The domains to watch, names normalized and unique: `domains` in file order, then those only `apps` claim, in
    /// the order first claimed. A domain in both has its configured `expect` merged with the claims.
    public var domains: [DomainConfiguration]
    /// The app files whose claims are watched (`apps`), in file order, each with the domains it claims.
    public var apps: [AppConfiguration] = []
    /// False when `apps` names files whose claims were not read (`status`, `history`, `silence` and `outbox` need
    /// no claims): `domains` then holds only those of `domains:`, and each app's `domains` is empty.
    public var appClaimsRead = true
    /// Which part of `domains` this daemon watches (`shard: K/N`); `nil` watches them all. See `Shard`.
    public var shard: Shard?
    /// Recurring maintenance windows (`maintenance`), in file order: each acts as a silence while open.
    public var maintenance: [MaintenanceWindow] = []
    /// The dead man's switch (`heartbeat`), pinged while the daemon is healthy; `nil` when not configured.
    public var heartbeat: HeartbeatConfiguration?
    /// The shared PostgreSQL database of a cluster (`store: postgres:`); `nil`: SQLite in `state_dir`.
    package var store: ClusterStore?

    /// A configuration with every default and no domains, the same as an empty file.
    public init(
        stateDirectory: String? = nil, interval: Duration = .seconds(15 * 60), listen: ListenAddress? = nil,
        http: HTTPSettings = HTTPSettings(), tls: TLSSettings = TLSSettings(), cdn: CDNSettings = CDNSettings(),
        retention: Duration = .seconds(90 * 86_400), alerts: AlertSettings = AlertSettings(),
        webhooks: [WebhookConfiguration] = [], domains: [DomainConfiguration] = []
    ) {
        self.stateDirectory = stateDirectory
        self.interval = interval
        self.listen = listen
        self.http = http
        self.tls = tls
        self.cdn = cdn
        self.retention = retention
        self.alerts = alerts
        self.webhooks = webhooks
        self.domains = domains
    }

    /// The shortest check interval: 1 s, for tests and staging. Production intervals are minutes; Apple's CDN
    /// changes at most as often as its `max-age` allows, and the scheduler re-checks right after that anyway.
    public static let minimumInterval: Duration = .seconds(1)

    /// How often `domain` is checked: its own interval, or the global one.
    public func interval(for domain: DomainConfiguration) -> Duration { domain.interval ?? interval }
}

/// How the probe makes origin and CDN requests (`http`). Never applied to webhooks, except `concurrency`.
public struct HTTPSettings: Sendable, Hashable {
    /// Whole-request timeout for origin and CDN requests (`timeout`, default 10s).
    public var timeout: Duration
    /// An extra PEM CA bundle trusted for origin and CDN requests (`ca_file`), for staging and tests.
    public var caFile: String?
    /// curl-style `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT` mappings (`connect_to`), parsed once when read.
    public var connectTo: [ConnectToMapping]
    /// How many requests may run at once (`concurrency`, default 32, `SettingLimits.concurrency`).
    public var concurrency: Int
    /// How long Apple's fetcher is taken to wait for an origin (`apple_budget`, default 5s, at least 1s): a slower
    /// answer is an `origin.slow` error. Apple publishes none; timeouts are observed near 5 s.
    public var appleBudget: Duration = .seconds(5)

    public init(
        timeout: Duration = .seconds(10), caFile: String? = nil, connectTo: [ConnectToMapping] = [],
        concurrency: Int = 32
    ) {
        self.timeout = timeout
        self.caFile = caFile
        self.connectTo = connectTo
        self.concurrency = concurrency
    }
}

/// Certificate checks (`tls`).
public struct TLSSettings: Sendable, Hashable {
    /// Warn when an origin certificate expires within this time (`expiry_warning`, default 14d).
    public var expiryWarning: Duration
    /// Within this time of expiry, `origin.tls.expiring` is an error, not a warning (`expiry_critical`, default
    /// 3d): an expired certificate breaks Apple's fetch.
    public var expiryCritical: Duration = .seconds(3 * 86_400)

    public init(expiryWarning: Duration = .seconds(14 * 86_400)) {
        self.expiryWarning = expiryWarning
    }
}

/// Apple's CDN (`cdn`).
public struct CDNSettings: Sendable, Hashable {
    /// Apple's production CDN; a staging CDN or a test fixture can replace it.
    public static let defaultBaseURL = "https://app-site-association.cdn-apple.com/a/v1/"
    /// How long one domain's CDN answer fails, the others' not, before it alerts as the domain's problem, by default.
    public static let loneFailureAfterDefault: Double = 30 * 60

    /// The CDN's base URL (`base_url`): https, always ending in `/`, the domain is appended to it.
    public var baseURL: String
    /// How long Apple may lag behind the origin before `cdn.stale` becomes an error (`stale_after`, default 24h).
    public var staleAfter: Duration
    /// How long Apple's CDN may fail for one domain while it answers for others before that domain alerts
    /// `cdn.unreachable` as its own problem (`lone_failure_after`, default 30m; `LoneCDNFailure`).
    public var loneFailureAfter: Duration

    public init(
        baseURL: String = CDNSettings.defaultBaseURL, staleAfter: Duration = .seconds(86_400),
        loneFailureAfter: Duration = .seconds(CDNSettings.loneFailureAfterDefault)
    ) {
        self.baseURL = baseURL
        self.staleAfter = staleAfter
        self.loneFailureAfter = loneFailureAfter
    }

    /// The CDN URL of `domain` (an already normalized name).
    public func url(for domain: String) -> String { baseURL + domain }
}

/// When alerts fire, repeat and resolve (`alerts`).
public struct AlertSettings: Sendable, Hashable {
    /// Consecutive failing checks before an alert fires (`failure_threshold`, default 2).
    public var failureThreshold: Int
    /// Consecutive passing checks before it resolves (`success_threshold`, default 1).
    public var successThreshold: Int
    /// Re-send a still-firing alert after this long (`repeat_after`, default 24h); `nil` (`0` in the file) never.
    public var repeatAfter: Duration?
    /// Whether resolved events are sent (`send_resolved`, default true).
    public var sendResolved: Bool
    /// How long delivery of one event is retried before it is given up (`give_up_after`, default 24h).
    public var giveUpAfter: Duration

    public init(
        failureThreshold: Int = 2, successThreshold: Int = 1, repeatAfter: Duration? = .seconds(86_400),
        sendResolved: Bool = true, giveUpAfter: Duration = .seconds(86_400)
    ) {
        self.failureThreshold = failureThreshold
        self.successThreshold = successThreshold
        self.repeatAfter = repeatAfter
        self.sendResolved = sendResolved
        self.giveUpAfter = giveUpAfter
    }
}

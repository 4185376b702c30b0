import MonitorCore
import MonitorEvaluation
import MonitorStore

/// Where the endpoint gets its answers, injected as closures so the endpoint knows nothing of the store or the
/// scheduler (and tests can hand it fixed values).
package struct EndpointSources: Sendable {
    /// The current metrics, asked on every scrape of `/metrics`.
    package var metrics: @Sendable () async throws -> MetricsSnapshot
    /// Whether the daemon is making progress, asked on every request to `/healthz`.
    package var health: @Sendable () async -> HealthCheck
    /// The body of `/status`: the JSON document of `status --json` (`StatusSnapshot`), already encoded.
    package var status: @Sendable () async throws -> [UInt8]
    /// What the page at `/` shows for the filters and page asked for.
    package var overview: @Sendable (DomainListing.Query) async throws -> StatusPage
    /// What `/domains/NAME` shows; `nil` for a domain that is not configured (404).
    package var domainPage: @Sendable (String) async throws -> DomainPage?
    /// The users of `endpoint.basic_auth_file`, asked on every request; `nil` leaves the routes open.
    package var basicAuth: @Sendable () async -> BasicAuthUsers?
    /// The names of `endpoint.hosts`, asked on every request: requests naming another host are refused.
    package var hosts: @Sendable () async -> [String]
    /// What `/api/v1/` and the badges read and write; `nil` answers them 500 (an endpoint without a store).
    package var api: APISources?

    /// Creates the sources; without page sources the pages answer 500 (tests of the other routes need none).
    package init(
        metrics: @escaping @Sendable () async throws -> MetricsSnapshot,
        health: @escaping @Sendable () async -> HealthCheck,
        status: @escaping @Sendable () async throws -> [UInt8],
        overview: @escaping @Sendable (DomainListing.Query) async throws -> StatusPage = { _ in
            throw PageUnavailable()
        },
        domainPage: @escaping @Sendable (String) async throws -> DomainPage? = { _ in throw PageUnavailable() },
        basicAuth: @escaping @Sendable () async -> BasicAuthUsers? = { nil },
        hosts: @escaping @Sendable () async -> [String] = { [] },
        api: APISources? = nil
    ) {
        self.metrics = metrics
        self.health = health
        self.status = status
        self.overview = overview
        self.domainPage = domainPage
        self.basicAuth = basicAuth
        self.hosts = hosts
        self.api = api
    }
}

/// The pages have no source (an endpoint built for metrics and health only).
package struct PageUnavailable: Error, Sendable {
    package init() {}
}

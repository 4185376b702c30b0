/// Where the endpoint gets its answers, injected as closures so the endpoint knows nothing of the store or the
/// scheduler (and tests can hand it fixed values).
public struct EndpointSources: Sendable {
    /// The current metrics, asked on every scrape of `/metrics`.
    public var metrics: @Sendable () async throws -> MetricsSnapshot
    /// Whether the daemon is making progress, asked on every request to `/healthz`.
    public var health: @Sendable () async -> HealthCheck
    /// The body of `/status`: the JSON document of `status --json` (`StatusSnapshot`), already encoded.
    public var status: @Sendable () async throws -> [UInt8]

    /// Creates the sources.
    public init(
        metrics: @escaping @Sendable () async throws -> MetricsSnapshot,
        health: @escaping @Sendable () async -> HealthCheck,
        status: @escaping @Sendable () async throws -> [UInt8]
    ) {
        self.metrics = metrics
        self.health = health
        self.status = status
    }
}

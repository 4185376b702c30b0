/// The answer of `/healthz`: healthy only while the daemon is making progress.
public enum HealthCheck: Sendable, Hashable {
    /// The scheduler is making progress; `/healthz` answers 200 `ok`.
    case healthy
    /// It is not; `/healthz` answers 503 with the reason, so the prober's log says why.
    case unhealthy(reason: String)
}

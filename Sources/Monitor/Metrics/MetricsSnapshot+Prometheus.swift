import Foundation
import Prometheus

extension MetricsSnapshot {
    /// The snapshot in the Prometheus text exposition format (version 0.0.4), served at `/metrics`.
    ///
    /// Every call fills a new `PrometheusCollectorRegistry`. A registry kept across scrapes would remember label
    /// sets that no longer exist (a removed domain, a verdict that changed) and report them forever; a fresh one
    /// reports exactly the snapshot. Counters survive this because the snapshot carries their running totals
    /// (`DomainMetrics.checksByVerdict`, counted by whoever builds the snapshot), and a fresh counter incremented
    /// by the total emits that total. swift-prometheus escapes label values (`\\`, `"`, line feed), so a hostile
    /// domain name cannot break the format.
    ///
    /// Metrics: `aasa_up`, `aasa_domain_verdict{domain,verdict}` (1 for the current verdict, 0 for the other five),
    /// `aasa_cdn_in_sync{domain}`, `aasa_cdn_stale_seconds{domain}`, `aasa_certificate_expiry_timestamp_seconds{domain}`,
    /// `aasa_last_check_timestamp_seconds{domain}`, `aasa_last_check_duration_seconds{domain}`,
    /// `aasa_propagation_delay_seconds{domain}`, `aasa_checks_total{domain,result}` (counter),
    /// `aasa_outbox_deliveries{state}` and `aasa_scheduler_last_progress_timestamp_seconds`.
    public func prometheusText() -> String {
        let registry = PrometheusCollectorRegistry()
        registry.makeGauge(descriptor: .named("aasa_up", help: "1 while the daemon answers scrapes.")).set(to: 1)
        if let schedulerLastProgress {
            registry.makeGauge(
                descriptor: .named(
                    "aasa_scheduler_last_progress_timestamp_seconds",
                    help: "When the scheduler last made progress, in seconds since the Unix epoch.")
            ).set(to: schedulerLastProgress.timeIntervalSince1970)
        }
        for domain in domains {
            domain.record(into: registry)
        }
        for (state, count) in outboxDeliveries.sorted(by: { $0.key < $1.key }) {
            registry.makeGauge(
                descriptor: .named("aasa_outbox_deliveries", help: "Webhook deliveries in the outbox, by state."),
                labels: [("state", state)]
            ).set(to: Double(count))
        }
        return registry.emitToString()
    }
}

extension DomainMetrics {
    /// Registers this domain's series; optional facts that are `nil` are left out rather than reported as 0.
    fileprivate func record(into registry: PrometheusCollectorRegistry) {
        let label = [("domain", domain)]
        for candidate in Verdict.allCases {
            registry.makeGauge(
                descriptor: .named(
                    "aasa_domain_verdict", help: "1 for the domain's current verdict, 0 for the others."),
                labels: label + [("verdict", candidate.rawValue)]
            ).set(to: candidate == verdict ? 1 : 0)
        }
        let gauges: [(name: String, help: String, value: Double?)] = [
            (
                "aasa_cdn_in_sync", "1 when Apple's CDN serves the origin's current meaning.",
                cdnInSync.map { $0 ? 1 : 0 }
            ),
            ("aasa_cdn_stale_seconds", "How long Apple's copy has lagged behind the origin, in seconds.", staleSeconds),
            (
                "aasa_certificate_expiry_timestamp_seconds", "When the origin's certificate expires (Unix time).",
                certificateNotAfter?.timeIntervalSince1970
            ),
            (
                "aasa_last_check_timestamp_seconds", "When the latest check finished (Unix time).",
                lastCheck?.timeIntervalSince1970
            ),
            ("aasa_last_check_duration_seconds", "How long the latest check took, in seconds.", lastCheckDuration),
            (
                "aasa_propagation_delay_seconds", "The latest measured origin-to-CDN propagation delay, in seconds.",
                lastPropagationDelay
            ),
        ]
        for gauge in gauges {
            guard let value = gauge.value else { continue }
            registry.makeGauge(descriptor: .named(gauge.name, help: gauge.help), labels: label).set(to: value)
        }
        for (verdict, count) in checksByVerdict.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            registry.makeCounter(
                descriptor: .named("aasa_checks_total", help: "Checks of the domain, by verdict."),
                labels: label + [("result", verdict.rawValue)]
            ).increment(by: Int64(max(0, count)))  // the library traps on a negative amount
        }
    }
}

extension MetricNameDescriptor {
    /// A descriptor for a full metric name: ours are written out whole (`aasa_cdn_stale_seconds`), which is easier
    /// to search for than namespace, name and unit assembled by the library.
    fileprivate static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

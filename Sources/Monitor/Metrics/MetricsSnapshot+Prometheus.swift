import Foundation
import NIOCore

extension MetricsSnapshot {
    /// The snapshot in the Prometheus text exposition format (version 0.0.4), served at `/metrics`.
    ///
    /// Rendered fresh from the snapshot on every scrape, in time linear in the domains (`PrometheusExposition`):
    /// only configured domains appear, and every domain always has all six `aasa_domain_verdict` series, so a
    /// verdict change never makes a series vanish. Counters come from the running totals the snapshot carries
    /// (`DomainMetrics.checksByVerdict`), so they only grow, as a Prometheus counter must.
    ///
    /// Metrics: `aasa_up`, `aasa_domain_verdict{domain,verdict}` (1 for the current verdict, 0 for the other five),
    /// `aasa_cdn_in_sync{domain}`, `aasa_cdn_stale_seconds{domain}`, `aasa_certificate_expiry_timestamp_seconds{domain}`,
    /// `aasa_last_check_timestamp_seconds{domain}`, `aasa_last_check_duration_seconds{domain}`,
    /// `aasa_propagation_delay_seconds{domain}`, `aasa_checks_total{domain,result}` (counter),
    /// `aasa_outbox_deliveries{state}` and `aasa_scheduler_last_progress_timestamp_seconds`.
    public func prometheusText() -> String { String(buffer: prometheusBytes()) }

    /// `prometheusText()` as the bytes `/metrics` sends, written once (`PrometheusExposition`).
    public func prometheusBytes() -> ByteBuffer {
        var out = PrometheusExposition(capacity: 1_024 + domains.count * 1_400)
        out.family("aasa_up", help: "1 while the daemon answers scrapes.", kind: .gauge)
        out.sample("aasa_up", value: 1)
        if let schedulerLastProgress {
            let name = "aasa_scheduler_last_progress_timestamp_seconds"
            out.family(
                name, help: "When the scheduler last made progress, in seconds since the Unix epoch.", kind: .gauge)
            out.sample(name, value: schedulerLastProgress.timeIntervalSince1970)
        }
        out.family("aasa_domain_verdict", help: "1 for the domain's current verdict, 0 for the others.", kind: .gauge)
        for domain in domains {
            for candidate in Verdict.allCases {
                out.sample(
                    "aasa_domain_verdict", labels: ["domain": domain.domain, "verdict": candidate.rawValue],
                    value: candidate == domain.verdict ? 1 : 0)
            }
        }
        for gauge in DomainMetrics.gauges {
            out.family(gauge.name, help: gauge.help, kind: .gauge)
            for domain in domains {
                guard let value = gauge.value(domain) else { continue }
                out.sample(gauge.name, labels: ["domain": domain.domain], value: value)
            }
        }
        out.family("aasa_checks_total", help: "Checks of the domain, by verdict.", kind: .counter)
        for domain in domains {
            for verdict in Verdict.allCases {
                guard let count = domain.checksByVerdict[verdict] else { continue }
                out.sample(
                    "aasa_checks_total", labels: ["domain": domain.domain, "result": verdict.rawValue],
                    value: Double(max(0, count)))
            }
        }
        out.family("aasa_outbox_deliveries", help: "Webhook deliveries in the outbox, by state.", kind: .gauge)
        for (state, count) in outboxDeliveries.sorted(by: { $0.key < $1.key }) {
            out.sample("aasa_outbox_deliveries", labels: ["state": state], value: Double(count))
        }
        return out.bytes
    }
}

extension DomainMetrics {
    /// The per-domain gauges; a fact that is `nil` is left out rather than reported as 0.
    fileprivate static let gauges: [(name: String, help: String, value: @Sendable (DomainMetrics) -> Double?)] = [
        (
            "aasa_cdn_in_sync", "1 when Apple's CDN serves the origin's current meaning.",
            { $0.cdnInSync.map { $0 ? 1 : 0 } }
        ),
        (
            "aasa_cdn_stale_seconds", "How long Apple's copy has lagged behind the origin, in seconds.",
            { $0.staleSeconds }
        ),
        (
            "aasa_certificate_expiry_timestamp_seconds", "When the origin's certificate expires (Unix time).",
            { $0.certificateNotAfter?.timeIntervalSince1970 }
        ),
        (
            "aasa_last_check_timestamp_seconds", "When the latest check finished (Unix time).",
            { $0.lastCheck?.timeIntervalSince1970 }
        ),
        ("aasa_last_check_duration_seconds", "How long the latest check took, in seconds.", { $0.lastCheckDuration }),
        (
            "aasa_propagation_delay_seconds", "The latest measured origin-to-CDN propagation delay, in seconds.",
            { $0.lastPropagationDelay }
        ),
    ]
}

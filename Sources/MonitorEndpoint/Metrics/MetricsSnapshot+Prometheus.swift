import Foundation
import MonitorCore
import MonitorEvaluation
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
    package func prometheusText() -> String {
        String(
            buffer: prometheusChunks().reduce(into: ByteBuffer()) { text, chunk in text.writeImmutableBuffer(chunk) })
    }

    /// `prometheusText()` as the pieces `/metrics` sends one after the other, each about `chunkBytes`, written
    /// only when asked for: at 100,000 domains the text is 24 MB, which a scrape no longer holds whole.
    package func prometheusChunks(chunkBytes: Int = 256 * 1024) -> PrometheusChunks {
        PrometheusChunks(snapshot: self, chunkBytes: chunkBytes)
    }

    /// The exposition's families in order: those written once per scrape, and those written one domain at a time,
    /// so that a piece can end between two domains.
    fileprivate enum Family: Sendable {
        case once(@Sendable (inout PrometheusExposition, MetricsSnapshot) -> Void)
        case perDomain(@Sendable (inout PrometheusExposition, DomainMetrics) -> Void)

        static let all: [Family] =
            [.once(header), .perDomain(verdicts)] + DomainMetrics.gauges.map { gauge in .perDomain(gauge.write) }
            + [.perDomain(checks), .once(outbox)]

        static func header(_ out: inout PrometheusExposition, _ snapshot: MetricsSnapshot) {
            out.family("aasa_up", help: "1 while the daemon answers scrapes.", kind: .gauge)
            out.sample("aasa_up", value: 1)
            if let progress = snapshot.schedulerLastProgress {
                let name = "aasa_scheduler_last_progress_timestamp_seconds"
                out.family(
                    name, help: "When the scheduler last made progress, in seconds since the Unix epoch.", kind: .gauge)
                out.sample(name, value: progress.timeIntervalSince1970)
            }
        }

        static func verdicts(_ out: inout PrometheusExposition, _ domain: DomainMetrics) {
            out.family(
                "aasa_domain_verdict", help: "1 for the domain's current verdict, 0 for the others.", kind: .gauge)
            for candidate in Verdict.allCases {
                out.sample(
                    "aasa_domain_verdict", labels: ["domain": domain.domain, "verdict": candidate.rawValue],
                    value: candidate == domain.verdict ? 1 : 0)
            }
        }

        static func checks(_ out: inout PrometheusExposition, _ domain: DomainMetrics) {
            out.family("aasa_checks_total", help: "Checks of the domain, by verdict.", kind: .counter)
            for verdict in Verdict.allCases {
                guard let count = domain.checksByVerdict[verdict] else { continue }
                out.sample(
                    "aasa_checks_total", labels: ["domain": domain.domain, "result": verdict.rawValue],
                    value: Double(Swift.max(0, count)))
            }
        }

        static func outbox(_ out: inout PrometheusExposition, _ snapshot: MetricsSnapshot) {
            out.family("aasa_outbox_deliveries", help: "Webhook deliveries in the outbox, by state.", kind: .gauge)
            for (state, count) in snapshot.outboxDeliveries.sorted(by: { $0.key < $1.key }) {
                out.sample("aasa_outbox_deliveries", labels: ["state": state], value: Double(count))
            }
        }
    }
}

/// The pieces of one `/metrics` answer (`MetricsSnapshot.prometheusChunks`), written as they are iterated.
package struct PrometheusChunks: Sequence, IteratorProtocol, Sendable {
    private let snapshot: MetricsSnapshot
    private let chunkBytes: Int
    private var family = 0
    private var domain = 0
    private var out: PrometheusExposition

    fileprivate init(snapshot: MetricsSnapshot, chunkBytes: Int) {
        self.snapshot = snapshot
        self.chunkBytes = Swift.max(1, chunkBytes)
        out = PrometheusExposition(capacity: self.chunkBytes + 4_096)
    }

    package mutating func next() -> ByteBuffer? {
        let families = MetricsSnapshot.Family.all
        while family < families.count, out.bytes.readableBytes < chunkBytes {
            switch families[family] {
            case .once(let write):
                write(&out, snapshot)
                family += 1
            case .perDomain(let write):
                while domain < snapshot.domains.count, out.bytes.readableBytes < chunkBytes {
                    write(&out, snapshot.domains[domain])
                    domain += 1
                }
                if domain == snapshot.domains.count {
                    family += 1
                    domain = 0
                }
            }
        }
        return out.bytes.readableBytes == 0 ? nil : out.takeBytes(reserving: chunkBytes + 4_096)
    }
}

extension DomainMetrics {
    /// One per-domain gauge: its family and the domain's value, left out when `nil` rather than reported as 0.
    fileprivate struct Gauge: Sendable {
        let name: String
        let help: String
        let value: @Sendable (DomainMetrics) -> Double?

        func write(_ out: inout PrometheusExposition, _ domain: DomainMetrics) {
            out.family(name, help: help, kind: .gauge)
            guard let value = value(domain) else { return }
            out.sample(name, labels: ["domain": domain.domain], value: value)
        }
    }

    /// The per-domain gauges.
    fileprivate static let gauges: [Gauge] = [
        Gauge(
            name: "aasa_cdn_in_sync", help: "1 when Apple's CDN serves the origin's current meaning.",
            value: { $0.cdnInSync.map { $0 ? 1 : 0 } }),
        Gauge(
            name: "aasa_cdn_stale_seconds", help: "How long Apple's copy has lagged behind the origin, in seconds.",
            value: { $0.staleSeconds }),
        Gauge(
            name: "aasa_certificate_expiry_timestamp_seconds",
            help: "When the origin's certificate expires (Unix time).",
            value: { $0.certificateNotAfter?.timeIntervalSince1970 }),
        Gauge(
            name: "aasa_last_check_timestamp_seconds", help: "When the latest check finished (Unix time).",
            value: { $0.lastCheck?.timeIntervalSince1970 }),
        Gauge(
            name: "aasa_last_check_duration_seconds", help: "How long the latest check took, in seconds.",
            value: { $0.lastCheckDuration }),
        Gauge(
            name: "aasa_propagation_delay_seconds",
            help: "The latest measured origin-to-CDN propagation delay, in seconds.",
            value: { $0.lastPropagationDelay }),
    ]
}

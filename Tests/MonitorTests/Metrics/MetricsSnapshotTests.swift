import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import NIOCore
import Testing

@Suite("Prometheus rendering of a metrics snapshot")
struct MetricsSnapshotTests {
    static let checkedAt = Date(timeIntervalSince1970: 1_800_000_000)

    static let snapshot = MetricsSnapshot(
        domains: [
            DomainMetrics(
                domain: "example.com", verdict: .cdnStale, cdnInSync: false, staleSeconds: 3600,
                certificateNotAfter: Date(timeIntervalSince1970: 1_900_000_000), lastCheck: checkedAt,
                lastCheckDuration: 0.25, lastPropagationDelay: 5400,
                checksByVerdict: [.ready: 7, .cdnStale: 2]),
            DomainMetrics(domain: "quiet.example", verdict: .ready),
        ],
        outboxDeliveries: ["pending": 3, "delivered": 40],
        schedulerLastProgress: checkedAt)

    @Test("reports the current verdict as 1 and the five others as 0")
    func verdictGauges() throws {
        let samples = try ExpositionSample.parse(Self.snapshot.prometheusText())
        for verdict in Verdict.allCases {
            let value = ExpositionSample.value(
                "aasa_domain_verdict", ["domain": "example.com", "verdict": verdict.rawValue], in: samples)
            #expect(value == (verdict == .cdnStale ? 1 : 0), "verdict \(verdict.rawValue)")
        }
    }

    @Test("reports each fact of a domain under its metric name")
    func domainFacts() throws {
        let samples = try ExpositionSample.parse(Self.snapshot.prometheusText())
        let domain = ["domain": "example.com"]
        #expect(ExpositionSample.value("aasa_cdn_in_sync", domain, in: samples) == 0)
        #expect(ExpositionSample.value("aasa_cdn_stale_seconds", domain, in: samples) == 3600)
        #expect(ExpositionSample.value("aasa_certificate_expiry_timestamp_seconds", domain, in: samples) == 1.9e9)
        #expect(ExpositionSample.value("aasa_last_check_timestamp_seconds", domain, in: samples) == 1.8e9)
        #expect(ExpositionSample.value("aasa_last_check_duration_seconds", domain, in: samples) == 0.25)
        #expect(ExpositionSample.value("aasa_propagation_delay_seconds", domain, in: samples) == 5400)
        #expect(
            ExpositionSample.value("aasa_checks_total", domain.merging(["result": "ready"]) { $1 }, in: samples) == 7)
        #expect(
            ExpositionSample.value("aasa_checks_total", domain.merging(["result": "cdn_stale"]) { $1 }, in: samples)
                == 2)
    }

    @Test("reports daemon-wide gauges")
    func daemonGauges() throws {
        let samples = try ExpositionSample.parse(Self.snapshot.prometheusText())
        #expect(ExpositionSample.value("aasa_up", in: samples) == 1)
        #expect(ExpositionSample.value("aasa_scheduler_last_progress_timestamp_seconds", in: samples) == 1.8e9)
        #expect(ExpositionSample.value("aasa_outbox_deliveries", ["state": "pending"], in: samples) == 3)
        #expect(ExpositionSample.value("aasa_outbox_deliveries", ["state": "delivered"], in: samples) == 40)
    }

    @Test("leaves out facts that were never measured instead of reporting 0")
    func absentFacts() throws {
        let samples = try ExpositionSample.parse(Self.snapshot.prometheusText())
        let quiet = samples.filter { $0.labels["domain"] == "quiet.example" }
        #expect(Set(quiet.map(\.name)) == ["aasa_domain_verdict"])
    }

    @Test("declares the counter and gauge types")
    func types() {
        let text = MetricsSnapshotTests.snapshot.prometheusText()
        #expect(text.contains("# TYPE aasa_checks_total counter\n"))
        #expect(text.contains("# TYPE aasa_domain_verdict gauge\n"))
    }

    @Test(
        "escapes quotes, backslashes and line feeds in label values, and keeps other UTF-8 as it is",
        arguments: [
            "quote\"d.example", "back\\slash.example", "line\nfeed.example", "all\\\"\n.example",
            "bücher\"\u{1F600}.example",
        ])
    func escaping(domain: String) throws {
        let text = MetricsSnapshot(domains: [DomainMetrics(domain: domain, verdict: .ready, cdnInSync: true)])
            .prometheusText()
        let samples = try ExpositionSample.parse(text)
        #expect(ExpositionSample.value("aasa_cdn_in_sync", ["domain": domain], in: samples) == 1)
        #expect(samples.allSatisfy { $0.name.hasPrefix("aasa_") })
    }

    @Test("5,000 domains: every domain has its six verdict series, each family is declared once, in one piece")
    func manyDomains() throws {
        let names = (0..<5_000).map { "d\($0).example" }
        let text = MetricsSnapshot(
            domains: names.map {
                DomainMetrics(domain: $0, verdict: .ready, cdnInSync: true, checksByVerdict: [.ready: 1])
            }
        ).prometheusText()
        let samples = try ExpositionSample.parse(text)
        let verdicts = samples.filter { $0.name == "aasa_domain_verdict" }
        #expect(verdicts.count == 5_000 * Verdict.allCases.count)
        #expect(Set(verdicts.compactMap { $0.labels["domain"] }) == Set(names))
        // Prometheus rejects a second TYPE line for a family and wants a family's samples together.
        let families = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map {
            $0.split(separator: " ")[2]
        }
        #expect(families.count == Set(families).count)
        let order = samples.map(\.name).reduce(into: [String]()) { runs, name in
            if runs.last != name { runs.append(name) }
        }
        #expect(order.count == Set(order).count, "a family's samples are split: \(order.prefix(10))")
    }

    @Test("sent in pieces, the text is the same wherever the pieces end, and no piece holds the whole")
    func chunks() throws {
        let snapshot = MetricsSnapshot(
            domains: (0..<300).map {
                DomainMetrics(
                    domain: "d\($0).example", verdict: .cdnStale, cdnInSync: false, staleSeconds: 60,
                    checksByVerdict: [.ready: 2, .cdnStale: 1])
            }, outboxDeliveries: ["dead": 1, "pending": 2],
            schedulerLastProgress: Date(timeIntervalSince1970: 1_800_000_000))
        let whole = snapshot.prometheusText()
        for chunkBytes in [1, 100, 4_096, 10_000_000] {
            let pieces = Array(snapshot.prometheusChunks(chunkBytes: chunkBytes))
            #expect(String(buffer: pieces.reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }) == whole)
            // A piece ends after the domain that filled it: at most one domain's lines and a header (under 1 KB) beyond.
            #expect(pieces.allSatisfy { $0.readableBytes < chunkBytes + 1_000 }, "\(chunkBytes)")
            #expect(pieces.count >= whole.utf8.count / (chunkBytes + 1_000))
        }
        try #expect(ExpositionSample.parse(whole).count == 1 + 1 + 300 * (6 + 2 + 2) + 2)
    }

    @Test("values that are not finite are written as Prometheus spells them")
    func nonFinite() {
        let text = MetricsSnapshot(domains: [
            DomainMetrics(domain: "x.example", verdict: .ready, staleSeconds: .infinity)
        ])
        .prometheusText()
        #expect(text.contains(#"aasa_cdn_stale_seconds{domain="x.example"} +Inf"#))
    }
}

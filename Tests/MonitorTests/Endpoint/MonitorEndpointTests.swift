import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import Synchronization
import Testing

@Suite("HTTP endpoint for metrics, health and status")
struct MonitorEndpointTests {
    static let loopback = ListenAddress(host: "127.0.0.1", port: 0)

    /// Sources with fixed answers; health can be switched while the endpoint runs.
    final class FixedSources: Sendable {
        let health = Mutex(HealthCheck.healthy)
        let statusBody = Array(#"{"domains":[{"domain":"example.com","verdict":"ready"}]}"#.utf8)

        var sources: EndpointSources {
            EndpointSources(
                metrics: {
                    MetricsSnapshot(domains: [
                        DomainMetrics(domain: "say \"hi\"\\there\n.example", verdict: .cdnMissing, cdnInSync: false)
                    ])
                },
                health: { self.health.withLock { $0 } },
                status: { self.statusBody })
        }
    }

    /// Runs `body` against a fresh endpoint on a free loopback port, with a libcurl client.
    func withEndpoint(
        _ sources: EndpointSources,
        _ body: (_ get: (String) async throws -> HTTPResponse) async throws -> Void
    ) async throws {
        try await withCurlEngine { engine in
            try await withMonitorEndpoint(listen: Self.loopback, sources: sources) { address in
                #expect(address.port != 0)
                try await body { path in
                    try await engine.perform(
                        HTTPRequest(url: "http://\(address)\(path)", httpsOnly: false, httpVersion: .http1_1Only))
                }
            }
        }
    }

    @Test("serves the metrics in the Prometheus text format with escaped labels")
    func metrics() async throws {
        try await withEndpoint(FixedSources().sources) { get in
            let response = try await get("/metrics")
            #expect(response.status == 200)
            #expect(response.headers.first("content-type") == "text/plain; version=0.0.4; charset=utf-8")
            let samples = try ExpositionSample.parse(String(decoding: response.body, as: UTF8.self))
            let domain = "say \"hi\"\\there\n.example"
            #expect(ExpositionSample.value("aasa_cdn_in_sync", ["domain": domain], in: samples) == 0)
            #expect(
                ExpositionSample.value(
                    "aasa_domain_verdict", ["domain": domain, "verdict": "cdn_missing"], in: samples)
                    == 1)
            #expect(ExpositionSample.value("aasa_up", in: samples) == 1)
        }
    }

    @Test(
        "metrics longer than one piece arrive whole, chunked, as the snapshot renders them; a short text has a length")
    func longMetricsStream() async throws {
        let snapshot = MetricsSnapshot(
            domains: (0..<4_000).map {
                DomainMetrics(
                    domain: "d\($0).fleet.test", verdict: .ready, cdnInSync: true, checksByVerdict: [.ready: 3])
            })
        let sources = EndpointSources(metrics: { snapshot }, health: { .healthy }, status: { [] })
        try await withCurlEngine { engine in
            try await withMonitorEndpoint(listen: Self.loopback, sources: sources) { address in
                let response = try await engine.perform(
                    HTTPRequest(
                        url: "http://\(address)/metrics", maxBodyBytes: 64 << 20, httpsOnly: false,
                        httpVersion: .http1_1Only))
                #expect(response.status == 200)
                #expect(response.body.count > 512 * 1024)
                #expect(String(decoding: response.body, as: UTF8.self) == snapshot.prometheusText())
                #expect(response.headers.first("transfer-encoding") == "chunked")
                let head = try await engine.perform(
                    HTTPRequest(url: "http://\(address)/metrics", method: "HEAD", httpsOnly: false))
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                // The connection is still usable: a body sent after a HEAD answer would corrupt the next answer.
                let again = try await engine.perform(
                    HTTPRequest(
                        url: "http://\(address)/metrics", maxBodyBytes: 64 << 20, httpsOnly: false,
                        httpVersion: .http1_1Only))
                #expect(String(decoding: again.body, as: UTF8.self) == snapshot.prometheusText())
            }
        }
        try await withEndpoint(FixedSources().sources) { get in
            let short = try await get("/metrics")
            #expect(short.headers.first("content-length") != nil)
        }
    }

    @Test("answers /healthz with 200 while making progress and 503 with the reason when not")
    func health() async throws {
        let fixed = FixedSources()
        try await withEndpoint(fixed.sources) { get in
            let healthy = try await get("/healthz")
            #expect(healthy.status == 200)
            #expect(String(decoding: healthy.body, as: UTF8.self) == "ok\n")

            fixed.health.withLock { $0 = .unhealthy(reason: "no check finished for 900 s") }
            let stuck = try await get("/healthz")
            #expect(stuck.status == 503)
            #expect(String(decoding: stuck.body, as: UTF8.self) == "no check finished for 900 s\n")
        }
    }

    @Test("serves the status document as JSON")
    func status() async throws {
        let fixed = FixedSources()
        try await withEndpoint(fixed.sources) { get in
            let response = try await get("/status")
            #expect(response.status == 200)
            #expect(response.headers.first("content-type") == "application/json")
            #expect(response.body == fixed.statusBody)
        }
    }

    @Test(
        "answers 404 for any other path",
        arguments: ["/index.html", "/domains", "/metrics/extra", "/status.json", "/HEALTHZ"])
    func unknownPath(path: String) async throws {
        try await withEndpoint(FixedSources().sources) { get in
            let response = try await get(path)
            #expect(response.status == 404)
        }
    }

    @Test("answers 500 without the error's text when a source fails")
    func failingSource() async throws {
        struct StoreUnavailable: Error {}
        let sources = EndpointSources(
            metrics: { throw StoreUnavailable() }, health: { .healthy }, status: { throw StoreUnavailable() })
        try await withEndpoint(sources) { get in
            let metrics = try await get("/metrics")
            #expect(metrics.status == 500)
            #expect(String(decoding: metrics.body, as: UTF8.self) == "metrics unavailable; see the daemon's log\n")
            #expect(try await get("/status").status == 500)
        }
    }

    @Test("fails to start on an address that is already taken")
    func addressInUse() async throws {
        let sources = FixedSources().sources
        try await withMonitorEndpoint(listen: Self.loopback, sources: sources) { taken in
            await #expect(throws: (any Error).self) {
                try await withMonitorEndpoint(listen: taken, sources: sources) { _ in }
            }
        }
    }
}

import Foundation
import HTTPEngine
import MonitorCheck
import MonitorDaemon
import TestSupport

/// An origin fixture server and a fake Apple CDN, wired to a `DomainProbe` through connect-to rules.
///
/// `cdn.test` reaches the CDN server; every other host reaches the origin server. The probe trusts both servers'
/// test CAs (one combined file, since libcurl takes one CA file) and nothing else.
struct ProbeFixtures {
    let origin: FixtureServer
    let cdn: FixtureServer
    let probe: DomainProbe

    /// The probe's timeout: far above any delay a loaded machine adds to a fixture that answers (issue 31). A test
    /// whose timeout must fire uses a route that never answers (`.never`), not a short timeout.
    static let timeout = Duration.seconds(30)
    /// The version in the plain user agent of every fixture probe.
    static let version = "9.9.9-test"
    /// The plain user agent that goes with `version`.
    static let plainUserAgent = "aasa-monitor/\(version)"
    /// A small valid association file.
    static let aasaBody = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"]}]}}"#
    /// What the fake CDN serves, re-serialized as Apple does.
    static let cdnBody = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"]}]}}"#

    /// The CDN's answer for a domain it knows: a copy with Apple's headers.
    static let cdnAnswer: @Sendable (RecordedRequest) -> FixtureResponse = { _ in
        .text(
            cdnBody,
            headers: [
                ("Content-Type", "application/json"), ("Apple-Origin-Format", "json"),
                ("Apple-From", "https://example/.well-known/apple-app-site-association"),
                ("Cache-Control", "max-age=3600,public"), ("Age", "120"), ("X-Cache", "hit-fresh"),
                ("Via", "http/1.1 node.ts.apple.com (acdn/1)"),
            ])
    }
}

/// Starts the origin (with `certificate` and `routes`) and the fake CDN (answering for `domains`), builds a probe on a fresh engine, runs
/// `body`, and always shuts everything down.
func withProbeFixtures<Result>(
    certificate: FixtureCertificate = .valid(for: "*.origin.test"),
    protocols: FixtureServer.Protocols = .http2AndHTTP1,
    routes: [FixtureRoute],
    cdnServes domains: [String],
    timeout: Duration = ProbeFixtures.timeout,
    concurrency: Int = 32,
    _ body: (ProbeFixtures) async throws -> Result
) async throws -> Result {
    try await withFixtureServer(certificate: certificate, protocols: protocols, routes: routes) { origin in
        try await withFixtureServer(
            certificate: .valid(for: "cdn.test"),
            routes: domains.map { FixtureRoute("/a/v1/\($0)", respond: ProbeFixtures.cdnAnswer) }
        ) { cdn in
            let bundle = try writeCABundle([origin, cdn], tag: "probe")
            defer { try? FileManager.default.removeItem(atPath: bundle) }
            let settings = ProbeSettings(
                version: ProbeFixtures.version,
                cdnBaseURL: "https://cdn.test/a/v1/",
                timeout: timeout,
                connectTo: [
                    try ConnectToRule(parsing: cdn.connectTo("cdn.test")),
                    try ConnectToRule(parsing: origin.wildcardConnectTo),
                ],
                trust: .only(caFile: bundle),
                concurrency: concurrency
            )
            return try await withCurlEngine { engine in
                let probe = DomainProbe(engine: engine, settings: settings)
                return try await body(ProbeFixtures(origin: origin, cdn: cdn, probe: probe))
            }
        }
    }
}

/// Waits for `operation`, failing the test with `ProbeHangError` (and cancelling it) if it has not ended after
/// `deadline`: a hang guard for tests whose fixtures never answer, far above the time any check takes, never a
/// judgement of how fast it was.
func withHangGuard<Value: Sendable>(
    _ what: String, deadline: Duration = .seconds(300), _ operation: @escaping @Sendable () async -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try await Task.sleep(for: deadline)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw ProbeHangError(waitingFor: what, deadline: deadline)
        }
        return value
    }
}

/// An operation under `withHangGuard` did not end.
struct ProbeHangError: Error, CustomStringConvertible {
    var waitingFor: String
    var deadline: Duration
    var description: String { "\(waitingFor) had not ended after \(deadline)" }
}

/// A route that answers by the request's host name (HTTP/2 `:authority` arrives as `host`).
func routeByHost(_ path: String, _ answers: @escaping @Sendable (String) -> FixtureResponse) -> FixtureRoute {
    FixtureRoute(path) { request in answers(requestHost(request)) }
}

/// The host a request was sent to, without a port.
func requestHost(_ request: RecordedRequest) -> String {
    let value = request.headerValues("host").first ?? request.headerValues(":authority").first ?? ""
    return String(value.split(separator: ":").first ?? "")
}

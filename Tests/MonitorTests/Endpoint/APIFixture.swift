import AASA
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// A real endpoint over a real store that holds domains of known verdicts, reached over HTTP with libcurl.
struct APIFixture {
    typealias R = StoreReports

    /// The configured domains and their verdicts; `fresh.example` is configured but never checked.
    static let verdicts: [String: Verdict] = [
        "broken-a.example": .originBroken, "broken-b.example": .originBroken, "stale.example": .cdnStale,
        "ready.example": .ready, "gone.example": .cdnMissing,
    ]
    static let configured = verdicts.keys.sorted() + ["fresh.example"]
    /// The API's clock: a minute after the checks.
    static let now = R.at(1)
    static let user = "ops"
    static let password = "s3cret"
    /// `openssl passwd -5 -salt apitestsalt s3cret`.
    static let users = BasicAuthUsers(
        hashes: [user: "$5$apitestsalt$2RtJc1odTAH4W6/X82fKMKBQGlhq1J38Z/o6IOYuFL8"], file: "htpasswd")

    let port: Int
    let engine: CurlEngine
    let store: MonitorStore

    /// Runs `body` against an endpoint listening on `host` (port 0), with `basicAuth` as `endpoint.basic_auth_file`.
    static func with(
        host: String = "127.0.0.1", basicAuth: BasicAuthUsers? = nil, _ body: (APIFixture) async throws -> Void
    ) async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            for (domain, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
                let finding = ReportFinding(
                    code: .cdnStale, severity: .warning, source: .cdn, message: "Apple serves an older file")
                try await store.record(
                    report: R.report(
                        domain: domain, at: 0, origin: "sha256:a", cdn: "sha256:a", verdict: verdict,
                        findings: verdict == .cdnStale ? [finding] : []),
                    policy: LedgerPolicy(alerts: AlertPolicy(failureThreshold: 1), webhooks: []))
            }
            let sources = EndpointSources(
                metrics: { MetricsSnapshot(domains: []) }, health: { .healthy }, status: { [] },
                basicAuth: { basicAuth },
                api: APISources(store: store, configured: { configured }, now: { now }))
            try await withCurlEngine { engine in
                try await withMonitorEndpoint(listen: ListenAddress(host: host, port: 0), sources: sources) { bound in
                    try await body(APIFixture(port: bound.port, engine: engine, store: store))
                }
            }
        }
    }

    /// Sends a request to the endpoint over loopback; `credentials` adds HTTP Basic authentication.
    func request(
        _ method: String, _ path: String, json: String? = nil, contentType: String? = "application/json",
        credentials: (String, String)? = nil
    ) async throws -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if json != nil, let contentType { headers.append("Content-Type", contentType) }
        if let (user, password) = credentials {
            headers.append("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        return try await engine.perform(
            HTTPRequest(
                url: "http://127.0.0.1:\(port)\(path)", method: method, headers: headers,
                body: json.map { Array($0.utf8) },
                httpsOnly: false, httpVersion: .http1_1Only))
    }

    func get(_ path: String, credentials: (String, String)? = nil) async throws -> HTTPResponse {
        try await request("GET", path, credentials: credentials)
    }

    /// The body as a JSON object.
    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            "\(String(decoding: response.body, as: UTF8.self))")
    }

    /// The error's code and message of a JSON error answer.
    static func error(_ response: HTTPResponse) throws -> (code: String, message: String) {
        #expect(response.headers.first("content-type") == "application/json")
        let error = try #require(try object(response)["error"] as? [String: Any])
        return (try #require(error["code"] as? String), try #require(error["message"] as? String))
    }
}

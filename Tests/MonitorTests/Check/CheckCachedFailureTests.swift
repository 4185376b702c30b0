import EndToEndSlot
import Foundation
import Synchronization
import TestSupport
import Testing

/// `check` with the real binary while Apple's CDN holds a failure it cached: one cached before the origin's file
/// last changed (its `Last-Modified`) is Apple lagging, exit 3, and `--wait` waits through it; one cached after
/// is Apple's diagnosis of the origin as it is, exit 1.
@Suite("check: Apple's cached failure", .timeLimit(.minutes(10)), .endToEndSlot)
struct CheckCachedFailureTests {
    /// The file's `Last-Modified` per host: `fixed` changed 2 min ago (after Apple cached its 403, 5 min ago),
    /// `stillfailing` a day ago (before it), `dynamic` says "now" on every answer, as generated pages do.
    static func lastModified(host: String, now: Date) -> String? {
        switch host.split(separator: ".").first ?? "" {
        case "fixed": httpDate(now.addingTimeInterval(-120))
        case "waiting": httpDate(now.addingTimeInterval(-10))
        case "stillfailing": httpDate(now.addingTimeInterval(-86_400))
        case "dynamic": httpDate(now)
        default: nil
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Apple's 404 with the 403 it got from the origin, cached `age` seconds ago for `maxAge`.
    static func apple403(age: Int, maxAge: Int) -> FixtureResponse {
        .text(
            "", status: 404,
            headers: [
                ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                ("Apple-Failure-Details", #"{"status":"403 Forbidden"}"#), ("Cache-Control", "max-age=\(maxAge)"),
                ("Age", "\(age)"),
            ])
    }

    /// Runs `body` with the origins (a valid file, `Last-Modified` by host) and Apple's CDN answering `cdn`.
    static func with<Result>(
        domains: [String],
        cdn answer: @escaping @Sendable (String) -> FixtureResponse,
        _ body: (_ options: [String], _ cdn: FixtureServer) async throws -> Result
    ) async throws -> Result {
        let originRoutes = [
            FixtureRoute("/.well-known/apple-app-site-association") { request in
                var headers = [("Content-Type", "application/json")]
                if let modified = lastModified(host: requestHost(request), now: Date()) {
                    headers.append(("Last-Modified", modified))
                }
                return .text(CheckScenarios.current, headers: headers)
            },
            FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
        ]
        let cdnRoutes = domains.map { domain in FixtureRoute("/a/v1/\(domain)") { _ in answer(domain) } }
        return try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: cdnRoutes) { cdn in
                let bundle = try writeCABundle([origin, cdn], tag: "cached-failure")
                defer { try? FileManager.default.removeItem(atPath: bundle) }
                let options =
                    ["--cdn-base", "https://cdn.test/a/v1/", "--ca-file", bundle, "--timeout", "30s"]
                    + ["--connect-to", cdn.connectTo("cdn.test"), "--connect-to", origin.wildcardConnectTo]
                return try await body(options, cdn)
            }
        }
    }

    static func findings(_ output: String, domain: String) throws -> (verdict: String?, codes: [String: [String: Any]])
    {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let report = try #require((object["domains"] as? [[String: Any]])?.first { $0["domain"] as? String == domain })
        let findings = report["findings"] as? [[String: Any]] ?? []
        let byCode = Dictionary(
            findings.compactMap { finding in (finding["code"] as? String).map { ($0, finding) } },
            uniquingKeysWith: { first, _ in first })
        return (report["verdict"] as? String, byCode)
    }

    @Test("a 403 Apple cached before the origin's file changed is Apple lagging: exit 3, saying so and when it expires")
    func cachedBeforeTheFix() async throws {
        let domain = "fixed.origin.test"
        try await Self.with(domains: [domain], cdn: { _ in Self.apple403(age: 300, maxAge: 3600) }) { options, _ in
            let text = try await MonitorBinary.run(["check", domain] + options)
            #expect(text.status == 3, "\(text.output)\(text.error)")
            #expect(text.output.contains("\(domain): cdn_missing"), "\(text.output)")
            #expect(text.output.contains("before the origin's file changed"), "\(text.output)")
            #expect(text.output.contains("(in 55 min)"), "\(text.output)")
            #expect(!text.output.contains("firewall"), "\(text.output)")

            let json = try await MonitorBinary.run(["check", domain, "--json"] + options)
            #expect(json.status == 3)
            let (verdict, codes) = try Self.findings(json.output, domain: domain)
            #expect(verdict == "cdn_missing")
            #expect(codes["origin.apple_failure"] == nil)
            let detail = try #require(codes["cdn.missing"]?["detail"] as? [String: Any])
            #expect(detail["cached_at"] is String)
            #expect(detail["origin_changed_at"] is String)
            #expect(detail["origin_changed_per"] as? String == "last_modified")
        }
    }

    @Test("a 403 cached after the file's last change, or against a Last-Modified of now, is Apple's diagnosis: exit 1")
    func cachedAfterTheChange() async throws {
        for domain in ["stillfailing.origin.test", "dynamic.origin.test"] {
            try await Self.with(domains: [domain], cdn: { _ in Self.apple403(age: 300, maxAge: 3600) }) { options, _ in
                let run = try await MonitorBinary.run(["check", domain, "--json"] + options)
                #expect(run.status == 1, "\(domain): \(run.output)\(run.error)")
                let (verdict, codes) = try Self.findings(run.output, domain: domain)
                #expect(verdict == "origin_broken", "\(domain)")
                let message = codes["origin.apple_failure"]?["message"] as? String
                // Apple's answer is old news for a fix made since: the diagnosis says when it expires.
                #expect(message?.contains("cached 5 min ago, expires") == true, "\(domain): \(message ?? "none")")
            }
        }
    }

    @Test("--wait waits through a failure Apple cached before the fix, and exits 0 once Apple serves the file")
    func waitsThroughIt() async throws {
        let domain = "waiting.origin.test"
        let answered = Mutex(0)
        let cdnAnswer: @Sendable (String) -> FixtureResponse = { _ in
            let count = answered.withLock { count in
                count += 1
                return count
            }
            // Cached 30 s ago, before the file changed (10 s ago); it expires in 2 s, then Apple has the file.
            guard count > 1 else { return Self.apple403(age: 30, maxAge: 32) }
            return .text(
                CheckScenarios.currentAsApple,
                headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=3600"), ("Age", "0")])
        }
        try await Self.with(domains: [domain], cdn: cdnAnswer) { options, cdn in
            let run = try await MonitorBinary.run(
                ["check", domain, "--wait", "90s", "--wait-step", "1s"] + options)
            #expect(run.status == 0, "\(run.output)\(run.error)")
            #expect(run.output.contains("\(domain): ready"), "\(run.output)")
            #expect(cdn.requests.filter { $0.path == "/a/v1/\(domain)" }.count == 2, "\(run.error)")
        }
    }
}

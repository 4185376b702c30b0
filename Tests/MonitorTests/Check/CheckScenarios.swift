import Foundation
import HTTPEngine
import MonitorCheck
import MonitorDaemon
import TestSupport

/// Many fixture origins and a fake Apple CDN, each domain behaving one way, for end-to-end `check` tests.
///
/// `*.origin.test` names reach one origin server that answers by host name and user agent; the certificate
/// scenarios (`expired.test`, `wronghost.test`, `untrusted.test`, `expiring.test`) each have their own server;
/// `cdn.test` is Apple's CDN, answering `/a/v1/<domain>` per domain. One CA bundle trusts every test CA.
struct CheckScenarios {
    static let app = "9JA89QQLNQ.com.example.shop"

    /// The current file: `/buy/*` opens the app, `/buy/gift*` does not.
    static let current = """
        {"applinks":{"details":[{"appIDs":["\(app)"],"components":[{"/":"/buy/gift*","exclude":true},\
        {"/":"/buy/*"}]}]},"webcredentials":{"apps":["\(app)"]}}
        """
    /// The same meaning as Apple re-serializes it: other key order, other indentation.
    static let currentAsApple = """
        {
          "webcredentials": {"apps": ["\(app)"]},
          "applinks": {
            "details": [{"components": [{"exclude": true, "/": "/buy/gift*"}, {"/": "/buy/*"}], "appIDs": ["\(app)"]}]
          }
        }
        """
    /// An older version without the gift exclusion.
    static let older = """
        {"applinks":{"details":[{"appIDs":["\(app)"],"components":[{"/":"/buy/*"}]}]},\
        "webcredentials":{"apps":["\(app)"]}}
        """

    /// An app the origin lists (`newapp.origin.test`) before Apple's copy does: a release that adds an App Clip.
    static let newApp = "9JA89QQLNQ.com.example.clip"
    /// `current` plus `newApp` in applinks.
    static let currentWithNewApp = """
        {"applinks":{"details":[{"appIDs":["\(app)","\(newApp)"],"components":[{"/":"/buy/gift*","exclude":true},\
        {"/":"/buy/*"}]}]},"webcredentials":{"apps":["\(app)"]}}
        """

    let settings: ProbeSettings
    let caBundle: String
    let connectTo: [String]
    let cdn: FixtureServer
    /// The server of every `*.origin.test` host, for counting what a check asked an origin.
    let origin: FixtureServer

    static func json(_ text: String, contentType: String = "application/json") -> FixtureResponse {
        .text(text, headers: [("Content-Type", contentType)])
    }

    /// How each `*.origin.test` host answers `.well-known` (by user agent) and the root path.
    static func wellKnown(host: String, userAgent: String) -> FixtureResponse {
        switch host.split(separator: ".").first ?? "" {
        case "ready", "huge", "garbage", "missing", "absent", "unknown", "invalid", "expect": json(current)
        case "stale": json(current)
        case "newapp": json(currentWithNewApp)
        case "botblock": userAgent == "AASA-Bot/1.0.0" ? FixtureResponse(status: 403) : json(current)
        case "gone", "rootonly": FixtureResponse(status: 404)
        case "redirect": .redirect(to: "https://www.redirect.origin.test/.well-known/apple-app-site-association")
        case "large": json(#"{"applinks":{"details":[]},"pad":""# + String(repeating: "x", count: 131_073) + "\"}")
        case "html", "htmlmissing":
            .text("<!DOCTYPE html><html><body>Please sign in</body></html>", headers: [("Content-Type", "text/html")])
        case "ctype": json(current, contentType: "text/plain")
        case "bom":
            FixtureResponse(
                headers: [("Content-Type", "application/json")], body: .bytes([0xEF, 0xBB, 0xBF] + Array(current.utf8)))
        case "slow":
            // Past Apple's 5 s budget, well within our 30 s timeout: Apple gives up, we do not.
            {
                var slow = json(current); slow.delay = .seconds(7); return slow
            }()
        case "hang": .never
        // Terminal escapes in an app ID the report quotes: clear screen, red text, window title, bell. (A header
        // cannot carry them here: the fixture's HTTP/2 stack refuses control characters in header values.)
        case "escape":
            json(
                #"{"applinks":{"details":[{"appIDs":["\u001b[2J\u001b[31mFAKE\u001b]0;title\u0007"],"#
                    + #""components":[]}]}}"#)
        default: FixtureResponse(status: 500)
        }
    }

    static func root(host: String) -> FixtureResponse {
        host.hasPrefix("rootonly.") ? json(current) : FixtureResponse(status: 404)
    }

    /// How Apple's CDN answers for each domain.
    static func cdnAnswer(domain: String) -> FixtureResponse {
        let apple: [(String, String)] = [
            ("Content-Type", "application/json"), ("Cache-Control", "max-age=21600"), ("Age", "600"),
            ("Apple-Origin-Format", "json"), ("X-Cache", "hit-fresh"),
        ]
        switch domain.split(separator: ".").first ?? "" {
        case "stale", "expect": return .text(older, headers: apple)
        case "missing":
            return .text(
                "", status: 404,
                headers: [
                    ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                    ("Apple-Failure-Details", #"{"status":403}"#), ("Apple-From", "https://missing.origin.test/"),
                    ("Apple-Try-Direct", "false"), ("Cache-Control", "max-age=3600"), ("Age", "10"),
                ])
        case "absent":
            return .text("", status: 404, headers: [("Cache-Control", "max-age=3600"), ("Age", "10")])
        // Apple refused the HTML the origin serves with 200, as our own fetch sees it too.
        case "htmlmissing":
            return .text(
                "", status: 404,
                headers: [
                    ("Apple-Failure-Reason", "SWCERR00401 Bad JSON content"), ("Cache-Control", "max-age=3600"),
                    ("Age", "7200"),
                ])
        case "slow":
            return .text(
                "", status: 404,
                headers: [("Apple-Failure-Reason", "SWCERR00301 Timeout"), ("Apple-Try-Direct", "true")])
        // Every number Apple's headers carry, at its extremes: beyond a double, beyond a year, beyond Int.
        case "huge":
            return .text(
                "", status: 404,
                headers: [
                    ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
                    ("Apple-Failure-Details", #"{"b":1e999,"n":-1e999,"t":1e-999,"i":123456789012345678901234567890}"#),
                    ("Cache-Control", "max-age=999999999999"), ("Age", "99999999999999999999999"),
                ])
        case "garbage":
            return .text(
                currentAsApple,
                headers: [
                    ("Content-Type", "application/json"), ("Cache-Control", "max-age=-5, s-maxage=NaN"),
                    ("Age", "1e999"),
                ])
        case "unknown": return FixtureResponse(status: 503)
        case "longreason":
            return .text(
                "", status: 404,
                headers: [("Apple-Failure-Reason", "SWCERR00101 " + String(repeating: "x", count: 5_000))])
        case "invalid": return .text("<html>maintenance</html>", headers: apple)
        default: return .text(currentAsApple, headers: apple)
        }
    }

    static let certificateHosts: [(String, FixtureCertificate)] = [
        ("expired.test", .expired(for: "expired.test")), ("wronghost.test", .wrongHost(for: "wronghost.test")),
        ("untrusted.test", .untrusted(for: "untrusted.test")),
        ("expiring.test", .expiringSoon(for: "expiring.test", days: 5)),
    ]

    /// The timeout of every scenario that must answer: far above any delay a loaded machine adds, so a verdict never
    /// depends on the machine's speed. Only `slow` waits on purpose (7 s, past Apple's 5 s); what must time out
    /// (`hang`, which never answers) gets a short timeout in a run of its own.
    static let timeout = Duration.seconds(30)

    /// Runs `body` with every server up and always shuts them down.
    static func with<Result>(
        cdnDomains: [String],
        timeout: Duration = CheckScenarios.timeout,
        _ body: (CheckScenarios) async throws -> Result
    ) async throws -> Result {
        let originRoutes = [
            FixtureRoute("/.well-known/apple-app-site-association") { request in
                wellKnown(host: requestHost(request), userAgent: request.headerValues("user-agent").first ?? "")
            },
            FixtureRoute("/apple-app-site-association") { request in root(host: requestHost(request)) },
        ]
        let simpleRoutes = [
            FixtureRoute("/.well-known/apple-app-site-association", json(current)),
            FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
        ]
        return try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: originRoutes) { origin in
            try await withFixtureServer(
                certificate: .valid(for: "cdn.test"),
                routes: cdnDomains.map { domain in FixtureRoute("/a/v1/\(domain)", cdnAnswer(domain: domain)) }
            ) { cdn in
                try await withServers(certificateHosts[...], routes: simpleRoutes) { servers in
                    let rules =
                        [cdn.connectTo("cdn.test")] + servers.map { host, server in server.connectTo(host) }
                        + [origin.wildcardConnectTo]
                    let bundle = try writeCABundle([origin, cdn] + servers.map(\.1), tag: "check")
                    defer { try? FileManager.default.removeItem(atPath: bundle) }
                    let settings = ProbeSettings(
                        version: "9.9.9-test", cdnBaseURL: "https://cdn.test/a/v1/", timeout: timeout,
                        connectTo: try rules.map { try ConnectToRule(parsing: $0) }, trust: .only(caFile: bundle))
                    return try await body(
                        CheckScenarios(
                            settings: settings, caBundle: bundle, connectTo: rules, cdn: cdn, origin: origin))
                }
            }
        }
    }

    /// Starts one server per certificate scenario, nested, so each is shut down whatever happens.
    private static func withServers<Result>(
        _ hosts: ArraySlice<(String, FixtureCertificate)>,
        routes: [FixtureRoute],
        started: [(String, FixtureServer)] = [],
        _ body: ([(String, FixtureServer)]) async throws -> Result
    ) async throws -> Result {
        guard let (host, certificate) = hosts.first else { return try await body(started) }
        return try await withFixtureServer(certificate: certificate, routes: routes) { server in
            try await withServers(hosts.dropFirst(), routes: routes, started: started + [(host, server)], body)
        }
    }

    /// The command-line options that point `aasa-monitor check` at these servers, with the 30 s timeout.
    var commandOptions: [String] { options(timeout: "30s") }

    /// The options with another `--timeout` (in the flag's own syntax).
    func options(timeout: String) -> [String] {
        ["--cdn-base", "https://cdn.test/a/v1/", "--ca-file", caBundle, "--timeout", timeout]
            + connectTo.flatMap { ["--connect-to", $0] }
    }
}

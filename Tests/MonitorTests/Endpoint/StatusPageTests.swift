import AASA
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStore
import Testing

@Suite("status pages served by the endpoint")
struct StatusPageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let hostile = "\"><script>alert(1)</script>\u{1b}[2J & 'q'"

    /// An endpoint whose pages come from a store holding one domain with a hostile finding message.
    func withPages(
        basicAuth: BasicAuthUsers? = nil, _ body: (_ get: (String) async throws -> HTTPResponse) async throws -> Void
    ) async throws {
        let store = try await MonitorStore.inMemory()
        defer { try? store.close() }
        try await store.record(
            report: DomainReport(
                domain: "shop.example", checkedAt: Self.now, durationSeconds: 0.5, verdict: .originBroken,
                findings: [
                    ReportFinding(code: .originStatus, severity: .error, source: .wellKnown, message: Self.hostile),
                    ReportFinding(
                        code: .originBotBlocked, severity: .warning, source: .wellKnown,
                        message: String(repeating: "a", count: 50_000)),
                ],
                origin: OriginFacts(
                    wellKnown: LocationFacts(
                        url: "https://shop.example/.well-known/apple-app-site-association", status: 404),
                    plainStatus: 404, root: nil),
                cdn: nil, diff: nil, documents: [:]))
        let reader = StatusPageReader(store: store.reader)
        let configured = ["shop.example", "new.example"]
        let sources = EndpointSources(
            metrics: { MetricsSnapshot() }, health: { .healthy }, status: { [] },
            overview: { query in
                try await reader.overview(now: Self.now, configured: configured, lastCycle: Self.now, query: query)
            },
            domainPage: { try await reader.domain($0, now: Self.now, configured: configured.contains($0)) },
            basicAuth: { basicAuth })
        try await withCurlEngine { engine in
            try await withMonitorEndpoint(listen: ListenAddress(host: "127.0.0.1", port: 0), sources: sources) {
                address in
                try await body { path in
                    try await engine.perform(HTTPRequest(url: "http://\(address)\(path)", httpsOnly: false))
                }
            }
        }
    }

    @Test("/ lists every configured domain with its verdict, as HTML with the security headers")
    func overview() async throws {
        try await withPages { get in
            let response = try await get("/")
            #expect(response.status == 200)
            #expect(response.headers.first("content-type") == "text/html; charset=utf-8")
            let policy = try #require(response.headers.first("content-security-policy"))
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("style-src 'self'"))
            #expect(!policy.contains("unsafe"))
            #expect(response.headers.first("x-content-type-options") == "nosniff")
            #expect(response.headers.first("referrer-policy") == "no-referrer")
            let html = String(decoding: response.body, as: UTF8.self)
            #expect(
                html.contains(
                    #"<a class="dn" href="domains/shop.example"><span>shop.</span><wbr><span>example</span></a>"#))
            #expect(html.contains("✗ origin_broken"))
            #expect(
                html.contains(
                    #"<a class="dn" href="domains/new.example"><span>new.</span><wbr><span>example</span></a>"#))
            #expect(html.contains("not checked yet"))
            #expect(!html.contains("<script"))
            let css = try await get("/style.css")
            #expect(css.status == 200)
            #expect(css.headers.first("content-type") == "text/css; charset=utf-8")
        }
    }

    @Test("a domain page shows a hostile message as escaped text with its advice; unknown domains are 404")
    func domainPage() async throws {
        try await withPages { get in
            let response = try await get("/domains/shop.example")
            #expect(response.status == 200)
            let html = String(decoding: response.body, as: UTF8.self)
            #expect(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J &amp; &#39;q&#39;"))
            #expect(!html.contains("<script"))
            #expect(html.contains(Self.htmlEscaped(FindingCode.originStatus.fix)))
            #expect(html.contains(Self.htmlEscaped(FindingCode.originStatus.meaning)))
            #expect(html.contains("No propagation recorded yet"))
            // A 50 KB message is cut, with its length.
            #expect(html.contains("… (50000 bytes)"))
            #expect(!html.contains(String(repeating: "a", count: 2_001)))
            #expect(try await get("/domains/other.example").status == 404)
        }
    }

    @Test("with basic auth, pages need the password and /healthz does not")
    func basicAuth() async throws {
        let users = BasicAuthUsers(
            hashes: ["release": "$2y$05$0123456789abcdefghijkevoiCzwC7NWXkkY7c91.yFbkKTS/jlF2"], file: "htpasswd")
        try await withPages(basicAuth: users) { get in
            let denied = try await get("/")
            #expect(denied.status == 401)
            #expect(denied.headers.first("www-authenticate")?.hasPrefix("Basic realm=") == true)
            #expect(try await get("/healthz").status == 200)
        }
    }

    @Test("a domain page shows how Apple's copy differs from the origin's file, by meaning")
    func difference() async throws {
        let store = try await MonitorStore.inMemory()
        defer { try? store.close() }
        let app = "9JA89QQLNQ.com.example.shop"
        let before = #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy/*"}]}]}}"#
        let after =
            #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy/gift*","exclude":true},{"/":"/buy/*"}]}]}}"#
        try await store.record(
            report: DomainReport(
                domain: "stale.example", checkedAt: Self.now, durationSeconds: 0.5, verdict: .cdnStale, findings: [],
                origin: OriginFacts(
                    wellKnown: LocationFacts(
                        url: "https://stale.example/.well-known/apple-app-site-association", status: 200,
                        canonicalHash: "sha256:new"),
                    plainStatus: 404, root: nil),
                cdn: CDNFacts(
                    url: "https://app-site-association.cdn-apple.com/a/v1/stale.example", status: 200,
                    canonicalHash: "sha256:old"),
                diff: nil, documents: ["sha256:new": after, "sha256:old": before]))
        let page = try #require(
            try await StatusPageReader(store: store.reader).domain("stale.example", now: Self.now, configured: true))
        let difference = try #require(page.difference, "\(page.differenceNote ?? "")")
        #expect(!difference.sameMeaning)
        #expect(difference.canChangeBehavior)
        let html = page.html()
        #expect(html.contains("devices behave differently until Apple catches up"))
        for change in difference.changes {
            #expect(html.contains(change.kind.rawValue))
        }
        #expect(!difference.changes.isEmpty)
    }

    /// `text` as the page writes it: the registry's texts may hold `&`, quotes and angle brackets.
    static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}

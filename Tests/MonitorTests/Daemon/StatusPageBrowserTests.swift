import EndToEndSlot
import Foundation
import HTTPEngine
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStore
import Synchronization
import TestSupport
import Testing

/// The real daemon's status pages in a real browser: every domain with its verdict, a hostile finding message
/// shown as inert text, the propagation chart, and no request to any other origin.
@Suite("status page in headless Chromium", .serialized, .timeLimit(.minutes(10)), .endToEndSlot)
struct StatusPageBrowserTests {
    static let ready = "shop.origin.test"
    static let hostile = "hostile.origin.test"
    static let broken = "broken.origin.test"
    static let domains = [ready, hostile, broken]
    /// An app ID whose text is markup: a script that would mark the page and an image from another origin.
    static let hostileAppID = #"<script>document.body.dataset.pwned='1'</script><img src=http://evil.test/x.png>"#

    /// Per-domain answers of the origins and of Apple's CDN, changed while the daemon runs.
    final class World: Sendable {
        let origins = Mutex<[String: (Int, String)]>([
            StatusPageBrowserTests.ready: (200, DaemonFixture.version1),
            StatusPageBrowserTests.hostile: (
                200,
                #"{"applinks":{"details":[{"appIDs":["\#(StatusPageBrowserTests.hostileAppID.replacingOccurrences(of: "'", with: "\\u0027"))"],"components":[{"/":"/*"}]}]}}"#
            ),
            StatusPageBrowserTests.broken: (404, ""),
        ])
        let cdn = Mutex<[String: String]>([
            StatusPageBrowserTests.ready: DaemonFixture.version1, StatusPageBrowserTests.broken: DaemonFixture.version1,
        ])

        func originRoutes() -> [FixtureRoute] {
            [
                FixtureRoute("/.well-known/apple-app-site-association") { request in
                    let host =
                        (request.headerValues("host").first ?? request.headerValues(":authority").first ?? "")
                        .split(separator: ":").first.map(String.init) ?? ""
                    let (status, body) = self.origins.withLock { $0[host] } ?? (404, "")
                    return .text(body, status: status, headers: [("Content-Type", "application/json")])
                },
                FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404)),
            ]
        }

        func cdnRoutes() -> [FixtureRoute] {
            StatusPageBrowserTests.domains.map { domain in
                FixtureRoute("/a/v1/\(domain)") { _ in
                    guard let body = self.cdn.withLock({ $0[domain] }) else { return FixtureResponse(status: 404) }
                    return .text(body, headers: DaemonFixture.appleHeaders)
                }
            }
        }
    }

    static func hasPropagated(_ fixture: DaemonFixture) async throws -> Bool {
        let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
        return try await reader.history(domain: ready).contains { $0.kind == .cdnPropagated }
    }

    static func listenAddress(_ daemon: RunningMonitor) throws -> String {
        let line = try #require(daemon.standardError.split(separator: "\n").first { $0.contains("endpoint listening") })
        return String(try #require(line.split(separator: " ").first { $0.hasPrefix("address=") }?.dropFirst(8)))
    }

    @Test(
        "/ and a domain page render every domain, keep a hostile message inert and load nothing from elsewhere",
        .enabled(if: HeadlessChromium.shouldRun, HeadlessChromium.skipReason))
    func browser() async throws {
        guard let binary = HeadlessChromium.binary else {
            Issue.record(
                "\(HeadlessChromium.requiredVariable)=1 but chromium is not installed: apt-get install chromium")
            return
        }
        let fixture = try DaemonFixture()
        let world = World()
        try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: world.originRoutes()) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: world.cdnRoutes()) { cdn in
                let ca = try writeCABundle([origin, cdn], tag: "page")
                defer { try? FileManager.default.removeItem(atPath: ca) }
                try fixture.writeConfiguration(domains: Self.domains, origin: origin, cdn: cdn, caFile: ca)
                let daemon = try fixture.startDaemon()
                try await eventually("every domain checked", log: daemon) {
                    try await StoreReader.openReadOnly(directory: fixture.stateDirectory).domainStates().count == 3
                }
                // A propagation for the chart: the origin changes, Apple catches up a few checks later.
                world.origins.withLock { $0[Self.ready] = (200, DaemonFixture.version2) }
                try await eventually("Apple's copy stale", log: daemon) {
                    let reader = try StoreReader.openReadOnly(directory: fixture.stateDirectory)
                    return try await reader.domainState(Self.ready)?.pendingPropagation != nil
                }
                world.cdn.withLock { $0[Self.ready] = DaemonFixture.version2 }
                try await eventually("cdn.propagated recorded", log: daemon) { try await Self.hasPropagated(fixture) }

                let base = "http://\(try Self.listenAddress(daemon))"
                let chromium = HeadlessChromium(binary: binary, directory: fixture.directory)
                let overview = try await chromium.load(
                    base + "/", screenshot: fixture.directory + "/overview.png", width: 390, height: 844)
                _ = try await chromium.load(
                    base + "/", screenshot: fixture.directory + "/overview-wide.png", width: 1280, height: 900)
                let states = try await StoreReader.openReadOnly(directory: fixture.stateDirectory).domainStates()
                // Problems first: the broken domain's row comes before the ready one's.
                let brokenRow = try #require(overview.dom.range(of: #"href="domains/\#(Self.broken)""#))
                let readyRow = try #require(overview.dom.range(of: #"href="domains/\#(Self.ready)""#))
                #expect(brokenRow.lowerBound < readyRow.lowerBound)
                for state in states {
                    let row = try #require(
                        overview.dom.components(separatedBy: "<tr>").first {
                            $0.contains(#"href="domains/\#(state.domain)""#)
                        }, "no row for \(state.domain)")
                    #expect(row.contains(state.verdict.rawValue), "\(state.domain) without \(state.verdict.rawValue)")
                }
                let page = try await chromium.load(
                    base + "/domains/\(Self.hostile)", screenshot: fixture.directory + "/hostile.png")
                // The message is on the page as text; no script element and no image from it exist in the DOM.
                #expect(page.dom.contains("&lt;script&gt;document.body.dataset.pwned"))
                #expect(!page.dom.contains("<script"))
                #expect(!page.dom.contains("data-pwned"))
                #expect(!page.dom.contains("<img"))
                let chart = try await chromium.load(
                    base + "/domains/\(Self.ready)", screenshot: fixture.directory + "/chart.png")
                #expect(chart.dom.contains("<svg"))
                #expect(chart.dom.contains("cdn.propagated"))
                for file in ["overview.png", "overview-wide.png", "hostile.png", "chart.png"] {
                    let size = try FileManager.default.attributesOfItem(atPath: fixture.directory + "/" + file)[.size]
                    #expect((size as? Int ?? 0) > 1_000, "\(file) is empty")
                }
                let requests = overview.pageRequests + page.pageRequests + chart.pageRequests
                #expect(requests.contains(base + "/style.css"), "the style sheet was not loaded: \(requests)")
                #expect(requests.allSatisfy { $0.hasPrefix(base + "/") }, "requests elsewhere: \(requests)")

                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// Domain names of every shape a fleet has: long, hyphenated, a 63-character label, short.
    static let fleetNames: [String] = {
        var names = [
            "checkout-eu-west-production.storefront-customer-12345.example-commerce-platform.com",
            "a-very-long-label-that-is-exactly-sixty-three-characters-long-ok.example",
            "links.shop-with-a-hyphenated-name.co.uk", "x.io",
            "universal-links-for-the-mobile-app.marketing-campaigns.example.org",
        ]
        for index in 0..<40 { names.append("tenant-\(index)-storefront.link-service-customers.example.net") }
        return names
    }()

    /// The overview of `fleetNames` (every third broken, every fifth stale), served by a real endpoint.
    static func withFleetPages(_ body: (_ base: String) async throws -> Void) async throws {
        let store = try await MonitorStore.inMemory()
        defer { try? store.close() }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, name) in fleetNames.enumerated() {
            for minute in 0..<(index % 4 == 0 ? 35 : 3) {
                let verdict: Verdict =
                    index % 3 == 0 && minute % 9 > 4 ? .originBroken : index % 5 == 0 ? .cdnStale : .ready
                try await store.record(
                    report: DomainReport(
                        domain: name, checkedAt: start.addingTimeInterval(Double(minute) * 60), durationSeconds: 0.4,
                        verdict: verdict, findings: [],
                        origin: OriginFacts(
                            wellKnown: LocationFacts(
                                url: "https://\(name)/.well-known/apple-app-site-association", status: 200,
                                canonicalHash: "sha256:\(verdict.rawValue)"),
                            plainStatus: 200, root: nil),
                        cdn: nil, diff: nil, documents: ["sha256:\(verdict.rawValue)": #"{"applinks":{"details":[]}}"#])
                )
            }
        }
        let reader = StatusPageReader(store: store.reader)
        let now = start.addingTimeInterval(36 * 60)
        let names = fleetNames + ["not-checked-yet.example-fleet.com"]
        let sources = EndpointSources(
            metrics: { MetricsSnapshot() }, health: { .healthy }, status: { [] },
            overview: { try await reader.overview(now: now, configured: names, lastCycle: now, query: $0) },
            domainPage: { try await reader.domain($0, now: now, configured: names.contains($0)) })
        try await withMonitorEndpoint(listen: ListenAddress(host: "127.0.0.1", port: 0), sources: sources) { address in
            try await body("http://\(address)")
        }
    }

    /// Measures each domain name on a copy of a page: how many of its labels break inside, and on how many lines
    /// it sits; the page's own policy forbids script, so the copy is a file that adds one.
    static let measuring = """
        <script>
        const out = [];
        for (const name of document.querySelectorAll('.dn')) {
          const labels = [...name.querySelectorAll('span')];
          const broken = labels.filter(label => label.getClientRects().length !== 1).length;
          const lines = new Set(labels.map(label => Math.round(label.getBoundingClientRect().top))).size;
          out.push(`name ${name.textContent} broken=${broken} lines=${lines}`);
        }
        out.push(`page scrollWidth=${document.documentElement.scrollWidth} innerWidth=${innerWidth}`);
        const pre = document.createElement('pre');
        pre.id = 'layout';
        pre.textContent = out.join('\\n');
        document.body.append(pre);
        </script>
        """

    @Test(
        "a domain name never breaks inside a label, at 1280 px and at 390 px; screenshots of both",
        .enabled(if: HeadlessChromium.shouldRun, HeadlessChromium.skipReason))
    func namesNeverBreak() async throws {
        guard let binary = HeadlessChromium.binary else {
            Issue.record(
                "\(HeadlessChromium.requiredVariable)=1 but chromium is not installed: apt-get install chromium")
            return
        }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Kept for a person to look at: the screenshots of this run.
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-page-screenshots").path
        try FileManager.default.createDirectory(atPath: shots + "/domains", withIntermediateDirectories: true)
        let chromium = HeadlessChromium(binary: binary, directory: directory)
        try await Self.withFleetPages { base in
            try await withCurlEngine { engine in
                func get(_ path: String) async throws -> String {
                    let response = try await engine.perform(HTTPRequest(url: base + path, httpsOnly: false))
                    #expect(response.status == 200, "\(path)")
                    return String(decoding: response.body, as: UTF8.self)
                }
                let long = Self.fleetNames[0]
                let pages = [("overview", "/", "index.html"), ("domain", "/domains/\(long)", "domains/\(long).html")]
                try await get("/style.css").write(toFile: shots + "/style.css", atomically: true, encoding: .utf8)
                for (label, path, file) in pages {
                    let html = try await get(path)
                    try html.replacingOccurrences(of: "</body>", with: Self.measuring + "</body>").write(
                        toFile: shots + "/" + file, atomically: true, encoding: .utf8)
                    for (width, height) in [(1280, 900), (390, 1600)] {
                        _ = try await chromium.load(
                            base + path, screenshot: shots + "/\(label)-\(width).png", width: width, height: height)
                        let measured = try await chromium.load(
                            "file://\(shots)/\(file)", screenshot: directory + "/measured.png", width: width,
                            height: height)
                        let layout = try #require(
                            measured.dom.components(separatedBy: #"<pre id="layout">"#).dropFirst().first?
                                .components(separatedBy: "</pre>").first, "no layout report at \(width) px")
                        let lines = layout.split(separator: "\n").filter { $0.hasPrefix("name ") }
                        #expect(lines.count >= (label == "overview" ? Self.fleetNames.count : 1), "\(layout)")
                        for line in lines {
                            #expect(line.contains(" broken=0 "), "\(width) px: \(line)")
                            // Wide, a name of a usual length sits on one line; only an unusually long one wraps,
                            // after a dot.
                            if width == 1280, line.contains(".link-service-customers.") {
                                #expect(line.hasSuffix("lines=1"), "\(width) px: \(line)")
                            }
                        }
                        // Nothing makes the page itself scroll sideways.
                        let page = try #require(layout.split(separator: "\n").first { $0.hasPrefix("page ") })
                        let numbers = page.split(separator: " ").compactMap { Int($0.split(separator: "=").last ?? "") }
                        #expect(numbers.count == 2 && numbers[0] <= numbers[1], "\(label) at \(width) px: \(page)")
                    }
                }
            }
        }
        print("status page screenshots: \(shots)")
    }

    @Test("with endpoint.basic_auth_file, every route but /healthz needs the password")
    func basicAuth() async throws {
        let fixture = try DaemonFixture()
        let world = World()
        let htpasswd = fixture.directory + "/htpasswd"
        // `htpasswd -B` (bcrypt) and `openssl passwd -5` (SHA-256-crypt) entries for the password "letmein".
        try """
        release:$2y$05$0123456789abcdefghijkevoiCzwC7NWXkkY7c91.yFbkKTS/jlF2
        ops:$5$0123456789abcdef$D1jD61i8NxW2Vdbrioh2aL4ydm2gB0/rRjCiljBJJUA

        """.write(toFile: htpasswd + ".ready", atomically: true, encoding: .utf8)
        try await withFixtureServer(certificate: .valid(for: "*.origin.test"), routes: world.originRoutes()) { origin in
            try await withFixtureServer(certificate: .valid(for: "cdn.test"), routes: world.cdnRoutes()) { cdn in
                let ca = try writeCABundle([origin, cdn], tag: "auth")
                defer { try? FileManager.default.removeItem(atPath: ca) }
                try fixture.writeConfiguration(
                    domains: [Self.ready], origin: origin, cdn: cdn, caFile: ca,
                    extra: "endpoint:\n  basic_auth_file: htpasswd\n")
                // A missing file is a configuration error naming file, line and key, and the daemon does not start.
                let check = try await MonitorBinary.run(["config", "check", "--config", fixture.configPath])
                #expect(check.status == 1)
                #expect(check.error.contains("endpoint.basic_auth_file: cannot read \(htpasswd)"), "\(check.error)")
                #expect(check.error.contains("config.yml:"), "\(check.error)")
                try FileManager.default.moveItem(atPath: htpasswd + ".ready", toPath: htpasswd)
                let daemon = try fixture.startDaemon()
                try await daemon.waitForLog("endpoint listening")
                let base = "http://\(try Self.listenAddress(daemon))"
                try await withCurlEngine { engine async throws in
                    func get(_ path: String, user: String? = nil, password: String = "letmein") async throws -> Int {
                        var headers: HTTPHeaders = [:]
                        if let user {
                            let token = Data("\(user):\(password)".utf8).base64EncodedString()
                            headers = ["Authorization": "Basic \(token)"]
                        }
                        return try await engine.perform(
                            HTTPRequest(url: base + path, headers: headers, httpsOnly: false)
                        ).status
                    }
                    #expect(try await get("/healthz") == 200)
                    for path in ["/", "/domains/\(Self.ready)", "/status", "/metrics", "/style.css"] {
                        #expect(try await get(path) == 401, "\(path) without credentials")
                    }
                    #expect(try await get("/", user: "release", password: "wrong") == 401)
                    #expect(try await get("/", user: "nobody") == 401)
                    #expect(try await get("/", user: "release") == 200)
                    #expect(try await get("/metrics", user: "ops") == 200)
                }
                daemon.send(SIGTERM)
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }
}

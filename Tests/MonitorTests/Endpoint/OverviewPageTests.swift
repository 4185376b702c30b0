import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// The overview at `/` for a fleet: problems first, a filter form without script, pages of rows, a strip of recent
/// checks per domain, names that never break inside a label, every value escaped.
@Suite("the overview page for a fleet")
struct OverviewPageTests {
    typealias R = StoreReports

    /// A store with `count` domains `d000.fleet.test`…, every seventh broken and every fifth stale, and the page
    /// reader over them.
    private func withFleet(
        _ count: Int, _ body: (StatusPageReader, [String], MonitorStore) async throws -> Void
    ) async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let names = (0..<count).map { String(format: "d%03d.fleet.test", $0) }
            for (index, name) in names.enumerated() {
                let verdict: Verdict = index % 7 == 0 ? .originBroken : index % 5 == 0 ? .cdnStale : .ready
                try await store.record(
                    report: R.report(domain: name, at: 0, origin: "sha256:a", cdn: "sha256:a", verdict: verdict))
            }
            try await body(StatusPageReader(store: store.reader), names, store)
        }
    }

    /// The rows' domains in page order.
    private func rowDomains(_ html: String) -> [String] {
        html.components(separatedBy: #"<td class="name" data-label="Domain"><a class="dn" href="domains/"#).dropFirst()
            .compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    private func query(_ text: String) -> DomainListing.Query {
        let pairs = text.split(separator: "&").map { pair -> (key: Substring, value: Substring) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        return DomainListing.Query(pageParameters: pairs)
    }

    @Test("broken domains come first, then stale, then ready; the header says when it was made and links the API")
    func brokenFirst() async throws {
        try await withFleet(30) { reader, names, _ in
            let html = try await reader.overview(now: R.at(1), configured: names, lastCycle: nil).html()
            let rows = rowDomains(html)
            #expect(rows.count == 30)
            let broken = names.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
            #expect(Array(rows.prefix(broken.count)) == broken)
            #expect(rows.last == "d029.fleet.test")
            #expect(html.contains("30 domains: 5 origin_broken, 5 cdn_stale, 20 ready"))
            #expect(html.contains(#"Page made <time datetime="2027-01-15T08:01:00Z">"#))
            #expect(html.contains(#"<a href="api/v1/domains">"#))
            #expect(!html.contains("<script"))
        }
    }

    @Test("the form filters by verdict and by name, and says how many each verdict lists")
    func filters() async throws {
        try await withFleet(30) { reader, names, _ in
            let broken = try await reader.overview(
                now: R.at(1), configured: names, lastCycle: nil, query: query("verdict=origin_broken")
            ).html()
            #expect(rowDomains(broken) == ["d000", "d007", "d014", "d021", "d028"].map { $0 + ".fleet.test" })
            #expect(broken.contains(#"<form class="filter" method="get" action=".">"#))
            #expect(broken.contains(#"name="verdict" value="origin_broken" checked>"#))
            #expect(broken.contains(#"name="verdict" value="ready">"#))
            #expect(broken.contains("Domains 1–5 of 5 matching"))
            let several = try await reader.overview(
                now: R.at(1), configured: names, lastCycle: nil,
                query: query("verdict=cdn_stale&verdict=origin_broken&q=d02")
            ).html()
            #expect(
                rowDomains(several) == ["d021.fleet.test", "d028.fleet.test", "d020.fleet.test", "d025.fleet.test"])
            #expect(several.contains(#"name="q" value="d02""#))
            // The counts follow the name filter: 10 names hold "d02", of which 2 broken, 2 stale, 6 ready.
            #expect(several.contains("10 of 30 domains match “d02”: 2 origin_broken, 2 cdn_stale, 6 ready"))
            let problems = try await reader.overview(
                now: R.at(1), configured: names, lastCycle: nil, query: query("problems=1")
            ).html()
            #expect(rowDomains(problems).count == 10)
        }
    }

    @Test("past 200 rows the page pages: a count, a link to the next page and back, the filters kept")
    func paging() async throws {
        try await withFleet(450) { reader, names, _ in
            let first = try await reader.overview(now: R.at(1), configured: names, lastCycle: nil).html()
            #expect(rowDomains(first).count == 200)
            #expect(first.contains("Domains 1–200 of 450"))
            #expect(first.contains(#"<a rel="next" href="?offset=200">next 200 →</a>"#))
            #expect(!first.contains(#"rel="prev""#))
            let third = try await reader.overview(
                now: R.at(1), configured: names, lastCycle: nil, query: query("offset=400")
            ).html()
            #expect(rowDomains(third).count == 50)
            #expect(third.contains("Domains 401–450 of 450"))
            #expect(third.contains(#"<a rel="prev" href="?offset=200">← previous 200</a>"#))
            #expect(!third.contains(#"rel="next""#))
            let filtered = try await reader.overview(
                now: R.at(1), configured: names, lastCycle: nil, query: query("verdict=ready&q=fleet&limit=100")
            ).html()
            #expect(rowDomains(filtered).count == 100)
            #expect(filtered.contains(#"href="?verdict=ready&amp;q=fleet&amp;limit=100&amp;offset=100""#))
            // Every page's rows together are every domain once, problems first.
            var seen: [String] = []
            for offset in stride(from: 0, to: 450, by: 200) {
                seen += rowDomains(
                    try await reader.overview(
                        now: R.at(1), configured: names, lastCycle: nil, query: query("offset=\(offset)")
                    ).html())
            }
            #expect(seen.count == 450)
            #expect(Set(seen) == Set(names))
        }
    }

    @Test("each domain has a strip of its last 30 checks coloured by verdict, oldest first, grey before the first")
    func strip() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            for minute in 0..<40 {
                try await store.record(
                    report: R.report(
                        domain: "busy.test", at: Double(minute), origin: "sha256:a", cdn: "sha256:a",
                        verdict: minute < 32 ? .ready : minute < 36 ? .originBroken : .cdnStale))
            }
            try await store.record(
                report: R.report(domain: "new.test", at: 0, origin: "sha256:a", cdn: "sha256:a", verdict: .ready))
            let html = try await StatusPageReader(store: store.reader).overview(
                now: R.at(41), configured: ["busy.test", "new.test", "never.test"], lastCycle: nil
            ).html()
            func strip(_ domain: String) throws -> String {
                let row = try #require(
                    html.components(separatedBy: "<tr>").first { $0.contains(#"href="domains/\#(domain)""#) })
                let start = try #require(row.range(of: #"<span class="strip""#))
                return row[start.lowerBound...].components(separatedBy: "</td>")[0]
            }
            let busy = try strip("busy.test")
            #expect(busy.components(separatedBy: "<i></i>").count - 1 == 30)
            #expect(busy.contains(#"aria-label="last 30 checks: 22 ready, then 4 origin_broken, then 4 cdn_stale""#))
            let order = ["v-ready", "v-origin_broken", "v-cdn_stale"].map { busy.range(of: $0)?.lowerBound }
            #expect(order.allSatisfy { $0 != nil })
            #expect(order[0]! < order[1]! && order[1]! < order[2]!)
            #expect(
                busy.contains(#"title="origin_broken: 4 checks from 2027-01-15T08:32:00Z to 2027-01-15T08:35:00Z""#))
            let new = try strip("new.test")
            #expect(new.components(separatedBy: "<i></i>").count - 1 == 30)
            #expect(new.contains(#"<span class="run none" title="no check yet">"#))
            #expect(new.components(separatedBy: #"<span class="run v-ready""#).count == 2)
            let never = try strip("never.test")
            #expect(never.contains(#"aria-label="no check yet""#))
            #expect(never.components(separatedBy: "<i></i>").count - 1 == 30)
        }
    }

    @Test("a hostile name from the store and a hostile filter stay text; names break only between labels")
    func escaping() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let hostile = #"x"><script>alert(1)</script>.evil.test"#
            try await store.record(
                report: R.report(domain: hostile, at: 0, origin: "sha256:a", cdn: "sha256:a", verdict: .originBroken))
            let reader = StatusPageReader(store: store.reader)
            let html = try await reader.overview(
                now: R.at(1), configured: [hostile, "shop-eu.example.com"], lastCycle: nil,
                query: query(#"q="><img src=x>"#)
            ).html()
            #expect(!html.contains("<script"))
            #expect(!html.contains("<img"))
            #expect(html.contains(#"value="&quot;&gt;&lt;img src=x&gt;""#))
            let all = try await reader.overview(
                now: R.at(1), configured: [hostile, "shop-eu.example.com"], lastCycle: nil
            ).html()
            #expect(!all.contains("<script"))
            #expect(all.contains("<span>x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.</span><wbr>"))
            #expect(all.contains("<span>shop-eu.</span><wbr><span>example.</span><wbr><span>com</span>"))
        }
    }

    @Test("the domain page nests each consequence inside its cause's box and links the API and the badge")
    func domainPage() async throws {
        let directory = try await CausesFirstStatusTests.seededState()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = StatusPageReader(store: try StoreReader.openReadOnly(directory: directory))
        let page = try #require(try await reader.domain("example.com", now: R.at(2), configured: true)).html()
        // The cause's box opens, then its consequences' boxes open and close inside it, then it closes.
        let boxes = page.components(separatedBy: "<section><h2>Findings</h2>")[1].components(separatedBy: "</section>")[
            0]
        let cause = try #require(
            boxes.range(of: #"<div class="finding"><p><strong class="sev-error">error origin.timeout"#))
        let consequence = try #require(boxes.range(of: #"<div class="finding consequence">"#))
        #expect(cause.lowerBound < consequence.lowerBound)
        let between = boxes[cause.upperBound..<consequence.lowerBound]
        #expect(!between.contains("</div>"), "the consequence is not inside its cause: \(boxes)")
        #expect(boxes.components(separatedBy: "<div").count == boxes.components(separatedBy: "</div>").count)
        #expect(page.contains(#"<a href="../api/v1/domains/example.com">"#))
        #expect(page.contains(#"<a href="../badge/example.com.svg">"#))
        #expect(page.contains(#"Page made <time datetime="2027-01-15T08:02:00Z">"#))
        #expect(page.contains(#"<h1 class="dn"><span>example.</span><wbr><span>com</span></h1>"#))
    }

    @Test("the query string: repeated and comma-separated verdicts, problems, bounds, junk ignored")
    func parameters() {
        #expect(query("verdict=origin_broken,cdn_stale&verdict=ready").verdicts == [.originBroken, .cdnStale, .ready])
        #expect(query("problems=1").verdicts == Set(ListedVerdict.allCases.filter { $0 != .ready }))
        #expect(query("verdict=nonsense&offset=-5&limit=0").verdicts.isEmpty)
        #expect(query("offset=-5").offset == 0)
        #expect(query("limit=0").limit == 1)
        #expect(query("limit=99999").limit == DomainListing.maximumLimit)
        #expect(query("q=shop+eu").nameContains == "shop eu")
        // Every verdict ticked is no filter.
        #expect(query(ListedVerdict.allCases.map { "verdict=\($0.rawValue)" }.joined(separator: "&")).verdicts.isEmpty)
    }
}

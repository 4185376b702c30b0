import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

@Suite("The domain listing: filters, problems first, pages")
struct DomainListingTests {
    typealias R = StoreReports

    /// Records one check per domain with the given verdict.
    private func record(_ verdicts: [String: Verdict], in store: MonitorStore, at minutes: Double = 0) async throws {
        for (domain, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
            try await store.record(
                report: R.report(domain: domain, at: minutes, origin: "sha256:a", cdn: "sha256:a", verdict: verdict))
        }
    }

    @Test("problems come first, worst verdict first, then by name; not checked before ready")
    func order() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await record(
                [
                    "b.example": .ready, "a.example": .ready, "z.example": .originBroken, "m.example": .cdnStale,
                    "c.example": .originBroken, "e.example": .expectationFailed,
                ], in: store)
            let configured = [
                "a.example", "b.example", "c.example", "e.example", "m.example", "new.example", "z.example",
            ]
            let page = try await DomainListing(store: store.reader, configured: configured).page(.init())
            #expect(
                page.rows.map(\.domain) == [
                    "c.example", "z.example", "e.example", "m.example", "new.example", "a.example", "b.example",
                ])
            #expect(page.rows.first?.verdict == .originBroken)
            #expect(page.rows.first { $0.domain == "new.example" }?.verdict == .notChecked)
            #expect(page.total == 7)
            #expect(page.counts == [.originBroken: 2, .expectationFailed: 1, .cdnStale: 1, .notChecked: 1, .ready: 2])
            #expect(page.next == nil)
        }
    }

    @Test("the verdict follows the newest check, and a removed domain is not listed")
    func newestVerdict() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await record(["a.example": .ready, "gone.example": .originBroken], in: store)
            try await record(["a.example": .cdnMissing], in: store, at: 5)
            let page = try await DomainListing(store: store.reader, configured: ["a.example"]).page(.init())
            #expect(page.rows == [.init(domain: "a.example", verdict: .cdnMissing)])
            let everything = try await DomainListing(store: store.reader, configured: nil).page(.init())
            #expect(everything.rows.map(\.domain) == ["gone.example", "a.example"])
        }
    }

    @Test("filters by one or several verdicts and by a piece of the name, ignoring case")
    func filters() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await record(
                [
                    "shop.example": .originBroken, "blog.example": .ready, "shop.test": .cdnStale,
                    "docs.example": .cdnStale,
                ], in: store)
            let listing = DomainListing(store: store.reader, configured: nil)
            let broken = try await listing.page(.init(verdicts: [.originBroken]))
            #expect(broken.rows.map(\.domain) == ["shop.example"])
            #expect(broken.total == 1)
            let several = try await listing.page(.init(verdicts: [.cdnStale, .originBroken]))
            #expect(several.rows.map(\.domain) == ["shop.example", "docs.example", "shop.test"])
            let named = try await listing.page(.init(nameContains: " SHOP "))
            #expect(named.rows.map(\.domain) == ["shop.example", "shop.test"])
            // Counts follow the name filter, not the verdict filter, so a form can say what each choice lists.
            let both = try await listing.page(.init(verdicts: [.cdnStale], nameContains: "shop"))
            #expect(both.rows.map(\.domain) == ["shop.test"])
            #expect(both.counts == [.originBroken: 1, .cdnStale: 1])
            #expect(both.total == 1)
            // Text that would be a pattern in LIKE is plain text here.
            #expect(try await listing.page(.init(nameContains: "%")).rows.isEmpty)
            #expect(try await listing.page(.init(nameContains: "_")).rows.isEmpty)
        }
    }

    @Test("pages by offset and by cursor, with the same rows either way")
    func paging() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            var verdicts: [String: Verdict] = [:]
            for index in 0..<25 {
                verdicts[String(format: "d%02d.example", index)] = index % 4 == 0 ? .originBroken : .ready
            }
            try await record(verdicts, in: store)
            let listing = DomainListing(store: store.reader, configured: nil)
            let everything = try await listing.page(.init(limit: 100)).rows
            #expect(everything.count == 25)
            #expect(everything.prefix(7).allSatisfy { $0.verdict == .originBroken })

            var byCursor: [DomainListing.Row] = []
            var cursor: DomainListing.Cursor?
            var offsets: [Int] = []
            repeat {
                let page = try await listing.page(.init(limit: 10, after: cursor))
                #expect(page.total == 25)
                offsets.append(page.offset)
                byCursor += page.rows
                cursor = page.next
                // A cursor survives its text form, as a link or an API client hands it back.
                if let next = cursor { #expect(DomainListing.Cursor(next.description) == next) }
            } while cursor != nil
            #expect(byCursor == everything)
            #expect(offsets == [0, 10, 20])

            let third = try await listing.page(.init(offset: 20, limit: 10))
            #expect(third.rows == Array(everything[20...]))
            #expect(third.offset == 20)
            #expect(third.next == nil)
            #expect(try await listing.page(.init(offset: 100)).rows.isEmpty)
        }
    }

    @Test("a page of rows reads their recent checks: newest runs expanded to 30, oldest first")
    func recentChecks() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            // 25 ready checks, then 10 broken ones: the newest 30 are 20 ready and 10 broken.
            for minute in 0..<35 {
                try await store.record(
                    report: R.report(
                        domain: "a.example", at: Double(minute), origin: "sha256:a", cdn: "sha256:a",
                        verdict: minute < 25 ? .ready : .originBroken))
            }
            try await record(["b.example": .cdnStale], in: store)
            let checks = try await store.reader.recentChecks(domains: ["a.example", "b.example", "none.example"])
            let strip = try #require(checks["a.example"])
            #expect(strip.count == 30)
            #expect(strip.prefix(20).allSatisfy { $0.verdict == .ready })
            #expect(strip.suffix(10).allSatisfy { $0.verdict == .originBroken })
            #expect(checks["b.example"]?.map(\.verdict) == [.cdnStale])
            #expect(checks["none.example"] == nil)
        }
    }
}

import EndToEndSlot
import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStatus
import MonitorStore
import TestSupport
import Testing

/// `status` without a domain: a summary and the domains with problems, capped; `--all` lists every domain.
@Suite("status summary", .endToEndSlot)
struct StatusSummaryTests {
    typealias R = StoreReports

    /// 30 broken domains (`b00…`), 3 stale (`s0…`) and 10 ready ones (`r00…`), recorded in `store`.
    private func recordFleet(_ store: MonitorStore) async throws {
        for index in 0..<30 {
            try await store.record(
                report: R.report(
                    domain: String(format: "b%02d.test", index), at: 0, origin: nil, cdn: nil, verdict: .originBroken))
        }
        for index in 0..<3 {
            try await store.record(
                report: R.report(
                    domain: "s\(index).test", at: 0, origin: "sha256:a", cdn: "sha256:b", verdict: .cdnStale))
        }
        for index in 0..<10 {
            try await store.record(
                report: R.report(
                    domain: String(format: "r%02d.test", index), at: 0, origin: "sha256:a", cdn: "sha256:a"))
        }
    }

    @Test("the summary counts by verdict and lists the worst problems first, capped, with how many more")
    func summary() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await recordFleet(store)
            let reader = StatusReader(store: store.reader)
            let configured =
                (0..<30).map { String(format: "b%02d.test", $0) } + ["s0.test", "s1.test", "s2.test"]
                + (0..<10).map { String(format: "r%02d.test", $0) } + ["new.test"]
            let summary = try await reader.summary(now: R.at(1), configured: configured)
            #expect(summary.counts == [.originBroken: 30, .cdnStale: 3, .notChecked: 1, .ready: 10])
            #expect(summary.domains.count == StatusReader.summaryLimit)
            #expect(summary.domains.allSatisfy { $0.verdict == .originBroken })
            #expect(summary.moreProblems == 30 + 3 + 1 - StatusReader.summaryLimit)
            let text = StatusText.render(summary)
            #expect(text.contains("domains: 44 (30 origin_broken, 3 cdn_stale, 1 not checked yet, 10 ready)"))
            #expect(text.contains("origin_broken  b00.test  since"))
            #expect(!text.contains("b29.test"))
            #expect(!text.contains("r00.test"))
            #expect(text.contains("… and 9 more with problems (status --all)"))
            #expect(text.hasSuffix("outbox: 0 pending, 0 retrying, 0 dead"))

            // A fleet that fits lists its problems only: ready domains are counted, never printed (issue 35 item 4).
            let wide = try await reader.summary(now: R.at(1), configured: configured, limit: 100)
            #expect(wide.domains.count == 33)
            #expect(wide.domains.map(\.verdict).suffix(4) == [.originBroken] + Array(repeating: .cdnStale, count: 3))
            #expect(!StatusText.render(wide).contains("r00.test"))
            #expect(wide.notChecked == ["new.test"])
            #expect(StatusText.render(wide).contains("configured, not checked yet: new.test"))
            #expect(!StatusText.render(wide).contains("(status --all)"))
        }
    }

    @Test("a fleet without problems says so")
    func allReady() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            try await store.record(report: R.report(domain: "a.test", at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let text = StatusText.render(
                try await StatusReader(store: store.reader).summary(now: R.at(1), configured: nil))
            #expect(text.contains("domains: 1 (1 ready)"))
            #expect(text.contains("every domain is ready"))
        }
    }

    @Test("the binary: status prints the summary, status --all every domain, status --json every domain")
    func binary() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await MonitorStore.open(directory: directory)
        try await recordFleet(store)
        try store.close()

        let summary = try await MonitorBinary.run(["status", "--state-dir", directory])
        #expect(summary.status == 0, "\(summary.error)")
        #expect(summary.output.contains("domains: 43 (30 origin_broken, 3 cdn_stale, 10 ready)"), "\(summary.output)")
        #expect(summary.output.contains("… and 8 more with problems (status --all)"))
        #expect(!summary.output.contains("r00.test"))

        let all = try await MonitorBinary.run(["status", "--all", "--state-dir", directory])
        #expect(all.status == 0, "\(all.error)")
        for name in ["b00.test", "b29.test", "s2.test", "r09.test"] {
            #expect(all.output.contains("  \(name)  since"), "\(name) missing from --all")
        }
        #expect(!all.output.contains("more (status --all)"))

        let json = try await MonitorBinary.run(["status", "--json", "--state-dir", directory])
        #expect(json.status == 0, "\(json.error)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((root["domains"] as? [[String: Any]])?.count == 43)
    }

    @Test("the binary: a small fleet's summary prints its problems only, ready domains counted (issue 35 item 4)")
    func smallFleetBinary() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await MonitorStore.open(directory: directory)
        try await store.record(
            report: R.report(domain: "stale.test", at: 0, origin: "sha256:a", cdn: "sha256:b", verdict: .cdnStale))
        for index in 0..<13 {
            try await store.record(
                report: R.report(
                    domain: String(format: "r%02d.test", index), at: 0, origin: "sha256:a", cdn: "sha256:a"))
        }
        try store.close()

        let summary = try await MonitorBinary.run(["status", "--state-dir", directory])
        #expect(summary.status == 0, "\(summary.error)")
        #expect(summary.output.contains("domains: 14 (1 cdn_stale, 13 ready)"), "\(summary.output)")
        #expect(summary.output.contains("cdn_stale  stale.test  since"), "\(summary.output)")
        #expect(!summary.output.contains("r00.test"), "\(summary.output)")
        #expect(!summary.output.contains("ready  "), "\(summary.output)")
    }
}

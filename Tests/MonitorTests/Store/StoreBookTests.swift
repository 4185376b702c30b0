import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import TestSupport
import Testing

@testable import MonitorDaemon
@testable import MonitorStore

/// The book read back at start (a scan of every row) and for a few domains (by their keys) give the same entries.
@Suite("the book read from the store")
struct StoreBookTests {
    typealias R = StoreReports

    @Test("a scan and keyed reads agree: state, alert states and open run of each domain; unchecked ones absent")
    func scanAndKeyedReadsAgree() async throws {
        try await withTemporaryStore { store, _ in
            let broken = ReportFinding(
                code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects",
                detail: ["location": "https://www.example.com/"])
            let policy = LedgerPolicy(alerts: AlertPolicy(failureThreshold: 1), webhooks: [])
            let domains = (0..<(StoreReader.keyedReads + 6)).map { "d\($0).example.com" }
            for (index, domain) in domains.enumerated() {
                let findings = index.isMultiple(of: 3) ? [broken] : []
                try await store.record(
                    report: R.report(
                        domain: domain, at: 0, origin: "sha256:a", cdn: "sha256:a",
                        verdict: findings.isEmpty ? .ready : .originBroken, findings: findings),
                    policy: policy)
            }
            let wanted = domains + ["never.example.com"]
            let scanned = try await store.reader.book(domains: wanted)
            #expect(scanned.count == domains.count)
            #expect(scanned["d0.example.com"]?.alerts.isEmpty == false)
            #expect(scanned["d1.example.com"]?.run != nil)
            for domain in wanted {
                #expect(try await store.reader.entry(of: domain) == scanned[domain], "\(domain)")
            }
            let few = try await store.reader.book(domains: Array(wanted.suffix(4)))
            #expect(few == scanned.filter { wanted.suffix(4).contains($0.key) })
        }
    }
}

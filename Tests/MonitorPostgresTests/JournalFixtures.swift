import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorPostgres
import TestSupport

/// Journal appends made as the daemon makes them: a hand-built report reduced from the domain's entry.
enum JournalFixtures {
    static let redirect = ReportFinding(code: .originRedirect, severity: .error, source: .wellKnown, message: "x")

    /// A check of `domain` at `minutes`: ready, or broken by a redirect (an alert that fires at once) posted to
    /// each of `webhooks`; under `lease` when given, due again `nextIn` seconds after its commit.
    static func check(
        _ domain: String, at minutes: Double, broken: Bool = false, entry: BookEntry? = nil, lease: Lease? = nil,
        nextIn: Double = 60, webhooks: [String] = ["ops"]
    ) -> JournalAppend {
        let report =
            broken
            ? StoreReports.report(
                domain: domain, at: minutes, origin: nil, cdn: "sha256:a", verdict: .originBroken,
                findings: [redirect])
            : StoreReports.report(domain: domain, at: minutes, origin: "sha256:a", cdn: "sha256:a")
        let policy = LedgerPolicy(
            alerts: AlertPolicy(failureThreshold: 1),
            webhooks: webhooks.map { WebhookConfiguration(name: $0, url: "https://hooks.example.test/\($0)") })
        // Event ids the same for the same check (both stores are compared), different for other domains and times.
        var ids = SeededGenerator(
            state: domain.utf8.reduce(UInt64(minutes * 1000) + 1) { $0 &* 31 &+ UInt64($1) })
        let outcome = DomainReducer.records(
            of: report, entry: entry, policy: policy, silences: [], previousOriginDocument: nil,
            makeID: { EventID.make(at: report.checkedAt, using: &ids) })
        var append = JournalAppend(check: (report, outcome), at: report.checkedAt)
        append.fence = lease.map { Fence(lease: $0, nextCheckIn: nextIn) }
        return append
    }

    /// Claims `domain` on `store` (registering it first) and commits a check of it under that lease.
    static func claimAndCommit(
        _ store: PostgresStore, _ domain: String, at minutes: Double = 0, broken: Bool = false, nextIn: Double = 0,
        webhooks: [String] = ["ops"]
    ) async throws -> JournalResult {
        try await store.register(domains: [domain])
        let journal = PostgresJournal(store: store)
        let claimed = try await journal.claim(limit: 1_000, slack: 0, leaseFor: 60)
        guard let grant = claimed.grants.first(where: { $0.lease.domain == domain }) else {
            return .failed(reason: "\(domain) was not granted")
        }
        let append = check(
            domain, at: minutes, broken: broken, entry: grant.entry, lease: grant.lease, nextIn: nextIn,
            webhooks: webhooks)
        return try await journal.append([append])[0]
    }
}

extension JournalResult {
    var isCommitted: Bool {
        if case .committed = self { return true }
        return false
    }

    var isFenced: Bool {
        if case .fenced = self { return true }
        return false
    }
}

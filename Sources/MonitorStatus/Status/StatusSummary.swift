import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// What `status` prints without a domain: the daemon, the monitor's own conditions, the counts by verdict, the
/// silences in force and the domains with problems (worst first, at most a screenful), then the outbox. Ready
/// domains are only counted, however small the fleet: `status --all` or `status DOMAIN` prints them.
///
/// Its cost follows what it prints, not the fleet: counts come from `DomainListing` (names and verdicts only), and
/// only the listed domains' states are decoded, so it answers at 100,000 domains as at ten.
package struct StatusSummary: Sendable {
    package var daemon: DaemonStatus
    /// The monitor's own conditions while they last (`monitor.*`).
    package var monitor: [AlertStatus]
    /// Every listed domain by verdict (`notChecked` for those configured but not checked yet).
    package var counts: [ListedVerdict: Int]
    /// The silences in force now, stored and configured (maintenance windows).
    package var silences: [SilenceStatus]
    /// The domains shown in full: those with problems, worst first, never a ready one.
    package var domains: [DomainStatus]
    /// The configured domains shown that were not checked yet, by name.
    package var notChecked: [String]
    /// The domains with problems (not checked ones included) left out.
    package var moreProblems: Int
    package var outbox: OutboxStatus

    /// How many domains are listed.
    package var total: Int { counts.values.reduce(0, +) }
    /// How many domains have a stored state (were checked at least once).
    package var checked: Int { total - counts[.notChecked, default: 0] }
}

extension StatusReader {
    /// The most domains `summary` shows; a fleet no larger is shown whole.
    package static let summaryLimit = 25

    /// The summary at `now` of `configured` (every domain in the store when `nil`).
    ///
    /// `silences` adds silences the database does not hold (the configuration's maintenance windows).
    package func summary(
        now: Date, configured: [String]?, silences extra: [Silence] = [], limit: Int = StatusReader.summaryLimit
    ) async throws -> StatusSummary {
        let listing = DomainListing(store: store, configured: configured)
        let limit = max(limit, 1)
        let problems = try await listing.page(
            DomainListing.Query(verdicts: Set(ListedVerdict.allCases.filter(\.isProblem)), limit: limit))
        let rows = problems.rows
        let names = rows.filter { $0.verdict != .notChecked }.map(\.domain)
        let states = try await store.domainStates(named: names)
        let alerts = Dictionary(grouping: try await store.alertStates(domains: names), by: \.identity.domain)
        let silences = try await store.silences(at: now) + extra
        return StatusSummary(
            daemon: daemonStatus(try await store.heartbeat(), now: now),
            monitor: try await store.alertStates(domain: "").map(alertStatus),
            counts: problems.counts,
            silences: silences.filter { $0.isActive(at: now) }.map { SilenceStatus($0, now: now) },
            domains: names.compactMap { name in
                states[name].map { state in
                    domainStatus(state, alerts: alerts[name] ?? [], silences: silences, now: now)
                }
            },
            notChecked: rows.filter { $0.verdict == .notChecked }.map(\.domain).sorted(),
            moreProblems: problems.total - rows.count,
            outbox: OutboxStatus(
                counts: try await store.outboxCounts(), nextAttempt: try await store.nextAttemptTime(),
                failingWebhooks: try await store.failingWebhooks()))
    }
}

extension StatusText {
    /// The human `status` without a domain: the daemon, the monitor's conditions, the counts, the silences, the
    /// domains with problems as `status DOMAIN` shows them (capped, saying how many more `--all` lists), the outbox.
    package static func render(_ summary: StatusSummary) -> String {
        var lines = [daemonLine(summary.daemon)]
        lines += monitorLines(summary.monitor)
        lines.append(countsLine(summary.counts))
        for silence in summary.silences {
            let scope = silence.domains.map { $0.count == 1 ? $0[0] : "\($0.count) domains" } ?? "every domain"
            lines.append("silence \(silence.id) over \(scope): \(silence.shownText)")
        }
        for domain in summary.domains { lines.append(contentsOf: domainLines(domain)) }
        if !summary.notChecked.isEmpty {
            lines.append("configured, not checked yet: \(summary.notChecked.joined(separator: ", "))")
        }
        if summary.moreProblems > 0 {
            lines.append("… and \(summary.moreProblems) more with problems (status --all)")
        } else if summary.total > 0, summary.total == summary.counts[.ready] {
            lines.append("every domain is ready")
        }
        lines.append(outboxLine(summary.outbox))
        return lines.joined(separator: "\n")
    }

    /// `domains: 1234 (3 origin_broken, 1 cdn_stale, 2 not checked yet, 1228 ready)`.
    static func countsLine(_ counts: [ListedVerdict: Int]) -> String {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return "domains: none" }
        let parts = ListedVerdict.allCases.compactMap { verdict in
            counts[verdict].map { "\($0) \(verdict == .notChecked ? "not checked yet" : verdict.rawValue)" }
        }
        return "domains: \(total) (\(parts.joined(separator: ", ")))"
    }
}

import AASA
import Foundation
import MonitorEvaluation

extension DaemonCore {
    /// The monitor's active conditions (`monitor.*`).
    package var activeConditions: [FindingCode: MonitorConditions.Condition] { conditions.active }

    /// How many checks are in flight (probing, queued or being appended).
    package var runningCount: Int { inFlight.count }

    /// Whether `name` (an A-label) is configured now: one lookup, for a page or badge about one domain.
    package func isConfigured(_ name: String) -> Bool { domains[name] != nil }

    /// The book's entry of `domain`, as its last committed check left it.
    package func entry(of domain: String) -> BookEntry? { book[domain]?.entry }

    /// When `domain`'s next check is due (`nil` while it is in flight or not scheduled).
    package func nextDue(of domain: String) -> Date? {
        plan.entries[domain].flatMap { $0.inFlight ? nil : $0.nextDue }
    }

    /// Every configured domain that has been checked, in configuration order, as `transform` makes it from the
    /// domain, its state and how many checks gave each verdict since the daemon started (`aasa_checks_total`).
    /// One pass and no array of whole states: at 100,000 domains that array kept the daemon ~10 MB larger after
    /// each `/metrics`.
    package func checkedDomains<T>(
        _ transform: (_ domain: String, _ state: DomainState, _ checksByVerdict: [Verdict: Int]) -> T
    ) -> [T] {
        configuredNames.compactMap { name in
            guard let page = book[name], let state = page.entry.state else { return nil }
            return transform(name, state, page.checks.byVerdict)
        }
    }

    /// Healthy while the loop goes round and no check has been running far longer than its timeouts allow.
    package func health(now: Date) -> HealthCheck {
        if now.timeIntervalSince(lastTick) > 30 {
            return .unhealthy(reason: "the scheduler loop has not run for \(Int(now.timeIntervalSince(lastTick))) s")
        }
        let limit = configuration.http.timeout.seconds * 4 + 60
        if let oldest = inFlight.values.min(by: { $0.job.startedAt < $1.job.startedAt }),
            now.timeIntervalSince(oldest.job.startedAt) > limit
        {
            return .unhealthy(
                reason: "the check of \(oldest.job.domain) has run for "
                    + "\(Int(now.timeIntervalSince(oldest.job.startedAt))) s")
        }
        return .healthy
    }

    /// Why checks are a whole interval behind (the oldest due check waits longer than the shortest interval, at
    /// least a minute), or `nil`. For `/healthz` only: an overloaded daemon is not stuck, so the watchdog ignores it.
    package func overdue(now: Date) -> String? {
        guard let wake = plan.nextWake, now.timeIntervalSince(wake) > max(60, shortestInterval) else { return nil }
        return "checks are overdue: one has waited \(Int(now.timeIntervalSince(wake))) s past its time"
    }

    /// One line for `systemctl status`.
    package func statusLine() -> String {
        // Counted, not grouped: grouping copied every domain's summary into arrays (2.7 MB at 10,000 domains) each
        // time systemd's status line was refreshed.
        var counts: [Verdict: Int] = [:]
        for page in book.values {
            if let verdict = page.entry.state?.verdict { counts[verdict, default: 0] += 1 }
        }
        let summary = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        let monitor = conditions.active.keys.sorted().map(\.id)
        return "watching \(configuration.domains.count) domains"
            + (summary.isEmpty ? "" : ": " + summary.joined(separator: ", "))
            + (monitor.isEmpty ? "" : "; " + monitor.joined(separator: ", "))
    }
}

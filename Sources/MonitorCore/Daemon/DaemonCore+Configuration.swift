import Foundation
import MonitorEvaluation

extension DaemonCore {
    /// Puts `configuration` (already restricted to the shard) in force and derives what every job reads from it.
    mutating func apply(_ configuration: MonitorConfiguration) {
        self.configuration = configuration
        domains = Dictionary(configuration.domains.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        configuredNames = configuration.domains.map(\.name)
        evaluation = EvaluationSettings(http: configuration.http, tls: configuration.tls, cdn: configuration.cdn)
        ledger = configuration.ledgerPolicy
        shortestInterval = configuration.domains.map { configuration.interval(for: $0).seconds }.min() ?? 0
        plan.startupWindow =
            tunables.startupWindow
            ?? Self.startupWindow(shortestInterval: shortestInterval, domains: configuration.domains.count)
    }

    /// Sets the plan's domains from the configuration; a domain the book holds continues from its last check.
    /// A cluster keeps no plan: the database holds when each domain is due.
    mutating func schedule(now: Date) {
        guard cluster == nil else { return }
        let domains = configuration.domains.map { ($0.name, configuration.interval(for: $0).seconds) }
        let lastChecks = book.compactMapValues { $0.entry.state?.lastCheck }
        var random = self.random
        plan.setDomains(domains, lastChecks: lastChecks, now: now, random: { Double.random(in: 0..<1, using: &random) })
        self.random = random
    }

    /// Puts a new configuration in force. Checks in flight finish with the settings they started with; a removed
    /// domain's check still appends (its deliveries are written) but does not enter the book.
    mutating func reload(
        _ configuration: MonitorConfiguration, stored: [String: BookEntry], now: Date, into actions: inout [Action]
    ) {
        apply(configuration.restrictedToShard())
        let kept = Set(configuredNames)
        book = book.filter { kept.contains($0.key) }
        for name in configuredNames where book[name] == nil {
            // A commit made after the domain was removed is newer than any journal read made before it.
            if let entry = removedCommits[name] ?? stored[name] { book[name] = BookPage(entry: entry) }
        }
        removedCommits = removedCommits.filter { !kept.contains($0.key) }
        // After the merge: a domain added back continues its schedule from its last check.
        schedule(now: now)
        conditions.forget(keeping: kept)
        // The webhooks may have changed: the next pass delivers under the new ones.
        outboxDirty = true
        actions.append(.notify(.reloaded(status: statusLine())))
    }

    /// Schedules `domain`'s next check after one ended at `now`, soon after Apple's cache expiry while its copy is
    /// behind.
    mutating func reschedule(_ domain: String, now: Date) {
        let state = book[domain]?.entry.state
        let behind = state.map { $0.verdict == .cdnStale || $0.verdict == .cdnMissing } ?? false
        var random = self.random
        plan.finished(
            domain, at: now, cdnBehind: behind, cdnExpiry: state?.expectedRefresh,
            random: { Double.random(in: 0..<1, using: &random) })
        self.random = random
    }

    /// A new event id for an event made at `time`.
    mutating func eventID(at time: Date) -> String {
        EventID.make(at: time, using: &random)
    }
}

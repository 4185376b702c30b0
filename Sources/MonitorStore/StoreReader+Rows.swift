import AASA
import Foundation
import GRDB
import MonitorCore

/// What a page of a `DomainListing` shows of its rows, read by name: states, alert states and recent checks of at
/// most a page of domains, each in one statement whatever the page's size (the names are bound as one JSON array).
extension StoreReader {
    /// The current states of the named domains (those checked at least once), by name.
    package func domainStates(named names: [String]) async throws -> [String: DomainState] {
        guard !names.isEmpty else { return [:] }
        let path = path
        let json = try Self.jsonArray(names)
        return try await database.read { db in
            var states: [String: DomainState] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT domain, state_json FROM domain_state
                    WHERE domain IN (SELECT value FROM json_each(?))
                    """,
                arguments: [json])
            {
                let domain: String = row["domain"]
                states[domain] = try Self.decode(
                    DomainState.self, row["state_json"], what: "state of \(domain)", path: path)
            }
            return states
        }
    }

    /// The stored alert states of the named domains, sorted by identity.
    package func alertStates(domains names: [String]) async throws -> [StoredAlertState] {
        guard !names.isEmpty else { return [] }
        let json = try Self.jsonArray(names)
        return try await database.read { db in try Self.alertStates(db, domainsJSON: json) }
    }

    /// The outcomes of the newest `count` checks of each named domain, oldest first, by name.
    ///
    /// History keeps runs, not checks: a run holds its verdict and how many checks repeated it, so the newest
    /// checks are the newest runs expanded. Each run holds at least one check, so at most `count` runs per domain
    /// are read, through `runs_by_domain`.
    package func recentChecks(domains names: [String], count: Int = 30) async throws -> [String: [RecentCheck]] {
        guard !names.isEmpty, count > 0 else { return [:] }
        let json = try Self.jsonArray(names)
        return try await database.read { db in
            var checks: [String: [RecentCheck]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT listed.value AS domain, run_spans.verdict, run_spans.checks, run_spans.first_seen,
                      run_spans.last_seen
                    FROM json_each(?1) AS listed JOIN run_spans ON run_spans.id IN (
                      SELECT id FROM runs WHERE domain = listed.value ORDER BY first_seen DESC, id DESC LIMIT ?2)
                    ORDER BY listed.value, run_spans.first_seen DESC, run_spans.id DESC
                    """,
                arguments: [json, count])
            {
                let domain: String = row["domain"]
                let taken = checks[domain, default: []].count
                guard taken < count else { continue }
                let run = RecentCheck(
                    verdict: ListedVerdict(stored: row["verdict"]), firstSeen: row.date("first_seen"),
                    lastSeen: row.date("last_seen"))
                let repeated = max(row["checks"] as Int, 1)
                checks[domain, default: []].append(contentsOf: repeatElement(run, count: min(repeated, count - taken)))
            }
            return checks.mapValues { $0.reversed() }
        }
    }

    static func jsonArray(_ names: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(names), as: UTF8.self)
    }
}

/// One of a domain's recent checks: its verdict, and the run of identical checks it belongs to.
package struct RecentCheck: Sendable, Hashable {
    package var verdict: ListedVerdict
    /// The first and last check of its run (the store keeps no time per repeated check).
    package var firstSeen: Date
    package var lastSeen: Date

    package init(verdict: ListedVerdict, firstSeen: Date, lastSeen: Date) {
        self.verdict = verdict
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}

import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStatus
import MonitorStore

/// Reads what the status pages show from the store, through `StatusReader` and `StoreReader` only.
package struct StatusPageReader: Sendable {
    /// The newest timeline events a domain page lists.
    static let timelineLimit = 200

    let store: StoreReader

    package init(store: StoreReader) {
        self.store = store
    }

    /// The newest checks each row's strip shows.
    static let stripLength = 30

    /// The overview: one page of the configured domains that match `query`, problems first.
    ///
    /// Its cost follows the page, not the fleet: the listing reads names and verdicts in one query with `LIMIT`
    /// (and one for the counts), then the page's rows are read by name: their states, alert states and recent runs,
    /// one statement each. At 100,000 domains it still decodes at most one page of states.
    ///
    /// `silences` adds silences the database does not hold (the configuration's open maintenance windows).
    package func overview(
        now: Date, configured: [String], lastCycle: Date?, query: DomainListing.Query = .init(),
        silences: [Silence] = []
    ) async throws
        -> StatusPage
    {
        let listing = try await DomainListing(store: store, configured: configured).page(query)
        let names = listing.rows.map(\.domain)
        let states = try await store.domainStates(named: names)
        let alerts = Dictionary(grouping: try await store.alertStates(domains: names), by: \.identity.domain)
        let allSilences = try await store.silences(at: now) + silences
        let statusReader = StatusReader(store: store)
        let rows = names.map { name in
            (
                name: name,
                status: states[name].map { state in
                    statusReader.domainStatus(state, alerts: alerts[name] ?? [], silences: allSilences, now: now)
                }
            )
        }
        let monitorAlerts = try await store.alertStates(domain: "").map {
            AlertStateSummary.decode($0.stateJSON).status(of: $0.identity)
        }
        var page = StatusPage(
            now: now, daemon: statusReader.daemonStatus(try await store.heartbeat(), now: now), lastCycle: lastCycle,
            domains: rows,
            outbox: OutboxStatus(
                counts: try await store.outboxCounts(), nextAttempt: try await store.nextAttemptTime(),
                failingWebhooks: try await store.failingWebhooks()),
            monitorAlerts: monitorAlerts.filter(\.isOpen))
        page.query = query
        page.listing = listing
        page.configuredCount = configured.count
        page.recentChecks = try await store.recentChecks(domains: names, count: Self.stripLength)
        return page
    }

    /// One domain's page, or `nil` when the domain is not configured.
    package func domain(
        _ name: String, now: Date, configured: Bool, silences: [Silence] = []
    ) async throws
        -> DomainPage?
    {
        guard configured else { return nil }
        let state = try await store.domainState(name)
        var status: DomainStatus?
        if let state {
            status = StatusReader(store: store).domainStatus(
                state, alerts: try await store.alertStates(domain: name),
                silences: try await store.silences(at: now) + silences, now: now)
        }
        let (difference, note) = try await difference(state)
        return DomainPage(
            now: now, domain: name, status: status,
            timeline: try await store.history(domain: name, limit: Self.timelineLimit), difference: difference,
            differenceNote: note, propagations: try await store.propagations(domain: name))
    }

    /// Apple's copy against the origin's file, by meaning, from the documents the store keeps.
    private func difference(_ state: DomainState?) async throws -> (DocumentDiff?, String?) {
        guard let state else { return (nil, "not checked yet") }
        guard let originHash = state.originHash else { return (nil, "the origin has served no valid file yet") }
        guard let cdnHash = state.cdnHash else {
            return (nil, state.lastCDNCheck == nil ? "Apple's CDN was not asked yet" : "Apple's CDN serves no copy")
        }
        guard let originText = try await store.document(hash: originHash),
            let cdnText = try await store.document(hash: cdnHash),
            let origin = AASAParser.parse(Array(originText.utf8)).document,
            let cdn = AASAParser.parse(Array(cdnText.utf8)).document
        else { return (nil, "the store no longer keeps both files") }
        return (AASADiff.compare(cdn, origin), nil)
    }
}

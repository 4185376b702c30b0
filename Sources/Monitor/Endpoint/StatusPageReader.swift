import AASA
import Foundation
import MonitorCore

/// Reads what the status pages show from the store, through `StatusReader` and `StoreReader` only.
public struct StatusPageReader: Sendable {
    /// The newest timeline events a domain page lists.
    static let timelineLimit = 200

    let store: StoreReader

    public init(store: StoreReader) {
        self.store = store
    }

    /// The overview: one read of every configured domain's state, so its cost is linear in the domains.
    ///
    /// `silences` adds silences the database does not hold (the configuration's open maintenance windows).
    public func overview(
        now: Date, configured: [String], lastCycle: Date?, silences: [Silence] = []
    ) async throws
        -> StatusPage
    {
        let snapshot = try await StatusReader(store: store).snapshot(
            now: now, domains: configured, silences: silences)
        let byName = Dictionary(snapshot.domains.map { ($0.domain, $0) }, uniquingKeysWith: { first, _ in first })
        let monitorAlerts = try await store.alertStates().filter { $0.identity.code.hasPrefix("monitor.") }.map {
            AlertStateSummary.decode($0.stateJSON).status(of: $0.identity)
        }
        return StatusPage(
            now: now, daemon: snapshot.daemon, lastCycle: lastCycle,
            domains: configured.map { ($0, byName[$0]) }, outbox: snapshot.outbox,
            monitorAlerts: monitorAlerts.filter(\.isOpen))
    }

    /// One domain's page, or `nil` when the domain is not configured.
    public func domain(
        _ name: String, now: Date, configured: Bool, silences: [Silence] = []
    ) async throws
        -> DomainPage?
    {
        guard configured else { return nil }
        let state = try await store.domainState(name)
        var status: DomainStatus?
        if let state {
            let silenced = (try await store.silences(at: now) + silences).active(for: name, at: now)
            status = StatusReader(store: store).domainStatus(
                state, alerts: try await store.alertStates(domain: name),
                silenced: silenced.map { SilenceStatus($0, now: now) })
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

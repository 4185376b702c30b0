import AASA
import Foundation
import MonitorCore
import MonitorStatus
import MonitorStore

/// What the page at `/` shows: the monitor's own health, then one page of the configured domains, problems first.
package struct StatusPage: Sendable {
    /// When the page was made; ages on the page are relative to it.
    package var now: Date
    package var daemon: DaemonStatus
    /// When the scheduler loop last went round (the daemon's own memory, not the store).
    package var lastCycle: Date?
    /// The page's domains in the listing's order (problems first); `status` is `nil` before a domain's first check.
    package var domains: [(name: String, status: DomainStatus?)]
    package var outbox: OutboxStatus
    /// Open alerts about the monitor itself (`monitor.*` codes).
    package var monitorAlerts: [AlertStatus]
    /// The filters and the page asked for.
    package var query: DomainListing.Query = .init()
    /// The listing this page is one page of: its total and counts by verdict.
    package var listing: DomainListing.Page = .init(rows: [], total: 0, counts: [:], offset: 0, next: nil)
    /// How many domains are configured, whatever the filters.
    package var configuredCount: Int = 0
    /// Each row's newest checks, oldest first (`StoreReader.recentChecks`).
    package var recentChecks: [String: [RecentCheck]] = [:]
}

/// What `/domains/NAME` shows.
package struct DomainPage: Sendable {
    package var now: Date
    package var domain: String
    /// `nil` before the first check.
    package var status: DomainStatus?
    /// The newest timeline events, oldest first.
    package var timeline: [TimelineEvent]
    /// How Apple's copy (A) differs from the origin's file (B) in meaning; `nil` when either is unknown.
    package var difference: DocumentDiff?
    /// Why `difference` is `nil`, in words.
    package var differenceNote: String?
    /// Measured propagation delays over the retained history, oldest first.
    package var propagations: [Propagation]
}

extension StatusPage {
    /// The page as HTML.
    package func html() -> String { StatusPageHTML.render(self) }
}

extension DomainPage {
    /// The page as HTML.
    package func html() -> String { DomainPageHTML.render(self) }
}

extension AlertStatus {
    /// Pending, firing or resolving: an alert a person may have to act on.
    var isOpen: Bool { state != nil && state != "resolved" }
}

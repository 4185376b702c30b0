import AASA
import Foundation
import MonitorCore
import MonitorStatus
import MonitorStore

/// What the page at `/` shows: the monitor's own health, then one page of the configured domains, problems first.
public struct StatusPage: Sendable {
    /// When the page was made; ages on the page are relative to it.
    public var now: Date
    public var daemon: DaemonStatus
    /// When the scheduler loop last went round (the daemon's own memory, not the store).
    public var lastCycle: Date?
    /// The page's domains in the listing's order (problems first); `status` is `nil` before a domain's first check.
    public var domains: [(name: String, status: DomainStatus?)]
    public var outbox: OutboxStatus
    /// Open alerts about the monitor itself (`monitor.*` codes).
    public var monitorAlerts: [AlertStatus]
    /// The filters and the page asked for.
    public var query: DomainListing.Query = .init()
    /// The listing this page is one page of: its total and counts by verdict.
    public var listing: DomainListing.Page = .init(rows: [], total: 0, counts: [:], offset: 0, next: nil)
    /// How many domains are configured, whatever the filters.
    public var configuredCount: Int = 0
    /// Each row's newest checks, oldest first (`StoreReader.recentChecks`).
    public var recentChecks: [String: [RecentCheck]] = [:]
}

/// What `/domains/NAME` shows.
public struct DomainPage: Sendable {
    public var now: Date
    public var domain: String
    /// `nil` before the first check.
    public var status: DomainStatus?
    /// The newest timeline events, oldest first.
    public var timeline: [TimelineEvent]
    /// How Apple's copy (A) differs from the origin's file (B) in meaning; `nil` when either is unknown.
    public var difference: DocumentDiff?
    /// Why `difference` is `nil`, in words.
    public var differenceNote: String?
    /// Measured propagation delays over the retained history, oldest first.
    public var propagations: [Propagation]
}

extension StatusPage {
    /// The page as HTML.
    public func html() -> String { StatusPageHTML.render(self) }
}

extension DomainPage {
    /// The page as HTML.
    public func html() -> String { DomainPageHTML.render(self) }
}

extension AlertStatus {
    /// Pending, firing or resolving: an alert a person may have to act on.
    var isOpen: Bool { state != nil && state != "resolved" }
}

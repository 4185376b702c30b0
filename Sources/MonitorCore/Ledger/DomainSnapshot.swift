import Foundation
import MonitorEvaluation

/// Everything the ledger needs to know about one domain before a check, typed.
///
/// `DomainReducer.records` builds it from the domain's book entry (the state, alert states and open run the daemon
/// keeps in memory, read from the database once at start) and the stored silences, and hands it to
/// `DomainLedger.apply`; the book is replaced by the outcome only after the journal committed it.
public struct DomainSnapshot: Sendable, Hashable {
    /// The domain's state after its previous check; `nil` before the first.
    public var state: DomainState?
    /// The domain's alert states (ok alerts are absent).
    public var alerts: [FindingIdentity: AlertState]
    /// The history run the previous check belongs to; `nil` before the first check.
    public var run: RunMark?
    /// The canonical text of the previous origin meaning, when the report shows another one (for the diff of
    /// `origin.changed`). The store loads it only when `DomainLedger.documentNeeded` names it.
    public var previousOriginDocument: String?
    /// The stored silences (`silence add`) covering the domain that have not ended: read in the check's own
    /// transaction, so a silence added or expired by another process counts from the next check on.
    public var silences: [Silence]

    public init(
        state: DomainState? = nil, alerts: [FindingIdentity: AlertState] = [:], run: RunMark? = nil,
        previousOriginDocument: String? = nil, silences: [Silence] = []
    ) {
        self.state = state
        self.alerts = alerts
        self.run = run
        self.previousOriginDocument = previousOriginDocument
        self.silences = silences
    }
}

/// The open history run of a domain: which stored row it is, and the outcome key every check of it shares.
public struct RunMark: Sendable, Hashable, Codable {
    /// The store's row id of the run.
    public var id: Int64
    /// `RunKey.of(report)` of the run's checks.
    public var key: String

    public init(id: Int64, key: String) {
        self.id = id
        self.key = key
    }
}

/// What happens to the history when a check is recorded.
public enum RunUpdate: Sendable, Hashable {
    /// The outcome repeats the open run's: only its `last_seen` and check count move.
    case extend(RunMark, lastSeen: Date)
    /// The outcome differs (or there is no run yet): a new run starts and stores the full report once.
    case start(HistoryRun)
}

/// A stretch of consecutive checks of one domain with the same outcome.
///
/// `history` and `status` read runs ("origin_broken from 09:12 to 11:40, 37 checks"); repeating an outcome costs
/// one row update, not a new row.
public struct HistoryRun: Sendable, Hashable {
    public var domain: String
    public var firstSeen: Date
    public var lastSeen: Date
    /// How many checks had this outcome in a row.
    public var checks: Int
    public var verdict: Verdict
    public var originHash: String?
    public var cdnHash: String?
    /// `RunKey.of(report)`: equal keys are the same outcome.
    public var key: String
    /// The first check's report, without its documents (they are stored once per meaning).
    public var report: DomainReport
    /// Whether this run starts the domain's history (its first check): it then stands for that check's
    /// `FirstRunEvents`, which the store does not repeat as timeline rows.
    public var opensHistory: Bool

    public init(
        domain: String, firstSeen: Date, lastSeen: Date, checks: Int, verdict: Verdict, originHash: String?,
        cdnHash: String?, key: String, report: DomainReport, opensHistory: Bool = false
    ) {
        self.domain = domain
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.checks = checks
        self.verdict = verdict
        self.originHash = originHash
        self.cdnHash = cdnHash
        self.key = key
        self.report = report
        self.opensHistory = opensHistory
    }
}

/// A webhook delivery the ledger asks the store to enqueue, in the same transaction as the alert state behind it.
public struct LedgerDelivery: Sendable, Hashable {
    /// Unique per (event, webhook), the same on every retry.
    public var deliveryID: String
    /// The webhook's name in the configuration.
    public var webhook: String
    public var event: MonitorEvent

    public init(deliveryID: String, webhook: String, event: MonitorEvent) {
        self.deliveryID = deliveryID
        self.webhook = webhook
        self.event = event
    }
}

/// Everything one check changes, for the store to write in one transaction.
public struct LedgerOutcome: Sendable, Hashable {
    public var state: DomainState
    /// The domain's complete new set of alert states; identities left out are deleted.
    public var alerts: [FindingIdentity: AlertState]
    /// Whether `alerts` differs from the snapshot's: when not, the store writes nothing for them.
    public var alertsChanged: Bool
    public var run: RunUpdate
    /// The timeline entries of the check, in the order they happened.
    public var timeline: [TimelineEvent]
    /// The events for receivers, alert transitions first, then the timeline's informational events.
    public var events: [MonitorEvent]
    public var deliveries: [LedgerDelivery]
    /// Canonical text of each meaning seen, by hash (stored once per meaning).
    public var documents: [String: String]
}

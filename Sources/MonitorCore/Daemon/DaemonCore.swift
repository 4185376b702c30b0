import Foundation
import MonitorEvaluation

/// The daemon's coordination as one value: the configuration in force, the schedule, the book, the monitor's own
/// conditions, the checks in flight, the journal queue and the delivery loop's timing.
///
/// The executor tells it what happened (`receive(_:)`) and performs the actions it returns; the core does no I/O and
/// reads no clock, so the same events give the same actions. Every transition ends in `settle(now:into:)`, which
/// derives from the state what to start, append, read, wake and when to look again: no transition can forget one.
///
/// Appends leave in sequence order, one batch at a time, and a batch's condition set is the set when the batch was
/// built, so the stored set can only move forward. A report's alerts are judged under the held sources in force
/// when the core accepts it, not when its check started.
package struct DaemonCore {
    /// A journal item's sequence number: strictly increasing across batches.
    package typealias Seq = UInt64

    // The configuration in force (restricted to this daemon's shard) and what is derived from it once.
    package internal(set) var configuration: MonitorConfiguration
    var domains: [String: DomainConfiguration] = [:]
    /// The configured domains' names, in configuration order.
    package internal(set) var configuredNames: [String] = []
    var evaluation = EvaluationSettings()
    var ledger: LedgerPolicy
    /// The shortest interval of any configured domain (0 without domains).
    var shortestInterval: TimeInterval = 0
    var plan: SchedulePlan
    /// Each watched domain's entry as its last committed check left it.
    var book: [String: BookPage]
    /// Entries committed after their domain was removed: a reload adding the domain back continues from them, not
    /// from a journal read that may predate the commit.
    var removedCommits: [String: BookEntry] = [:]
    /// The monitor's own conditions (`monitor.*`), folded from every accepted report.
    package internal(set) var conditions: MonitorConditions
    var silences: [Silence] = []
    var silencesReadAt = Date.distantPast
    var silencesReading = false

    /// Set when the daemon shares its fleet through the database: checks start by claims, not by the plan.
    let cluster: ClusterMode?
    /// The limit of the claim outstanding, if one is.
    var claiming: Int?
    /// When the next claim may be made: when the database said something comes due, or a retry after a failure.
    var nextClaimAt = Date.distantPast
    /// Checks the journal dropped because their lease was claimed by another daemon since.
    package internal(set) var fencedChecks = 0

    // Checks: one per domain at most, from its start until its append is answered.
    var nextJob: UInt64 = 1
    var inFlight: [String: InFlight] = [:]

    // The journal.
    var nextSeq: Seq = 1
    /// Accepted checks waiting for a batch, in acceptance order.
    var queue: [String] = []
    var batch: Batch?
    /// Changes of the monitor's conditions not yet committed, oldest first; their event ids are made once.
    var pendingConditions: [ConditionRecords] = []
    /// When the pending conditions are appended on their own (no check to ride with).
    var conditionRetryAt: Date?
    /// Set once the last conditions append of a shutdown was tried.
    var lastConditionsTried = false

    // The delivery loop.
    /// Something may have been queued since the last pass (true at start: the outbox may hold due deliveries).
    var outboxDirty = true
    var deliveryRunning = false
    /// When the next pass is due by itself (a retry time, the poll, or the end of a pause).
    var deliveryDueAt: Date?
    /// True while waiting out a pause after a failure: a dirty outbox does not end it.
    var deliveryPaused = false
    var deliveryPause: TimeInterval

    package internal(set) var phase: Phase = .starting
    /// When the core last handled an event: `/healthz` and the watchdog read it.
    package internal(set) var lastTick: Date
    package internal(set) var checksCompleted = 0
    package internal(set) var checksFailed = 0
    /// The last `.sleep` asked for: its tick comes by then, so only an earlier deadline needs another.
    var sleepingUntil: Date?
    var random: CoreRandom
    let tunables: Tunables

    /// A check from its start until its append is answered.
    struct InFlight {
        var job: Job
        var stage: Stage
        /// The accepted report and outcome (judged under the held sources in force when accepted).
        var reported: Reported?
    }

    enum Stage: Equatable {
        case probing, queued
        case appending(Seq)
    }

    /// The batch in flight: the items not yet answered, its conditions item and its checks.
    struct Batch {
        var waiting: Set<Seq>
        var conditions: (seq: Seq, count: Int)?
        var checks: [Seq: String]
    }

    /// The records of one change of the monitor's conditions, built once (their ids stay the same on retry).
    struct ConditionRecords {
        var transitions: [MonitorConditions.Transition]
        var events: [MonitorEvent]
        var deliveries: [LedgerDelivery]
    }

    /// A core for `configuration` (restricted to its shard here), continuing from the journal's `book` and active
    /// `conditions`; in a `cluster`, the book starts empty and fills with the entries claims bring.
    package init(
        configuration: MonitorConfiguration, book: [String: BookEntry], conditions: [MonitorConditions.Condition],
        now: Date, generator: any RandomNumberGenerator = SystemRandomNumberGenerator(),
        tunables: Tunables = Tunables(), cluster: ClusterMode? = nil
    ) {
        let configuration = configuration.restrictedToShard()
        self.cluster = cluster
        self.configuration = configuration
        self.ledger = configuration.ledgerPolicy
        self.plan = SchedulePlan(jitter: tunables.jitter)
        self.conditions = MonitorConditions(active: conditions)
        self.lastTick = now
        self.random = CoreRandom(base: generator)
        self.tunables = tunables
        self.deliveryPause = tunables.firstDeliveryPause
        self.book = [:]
        apply(configuration)
        var pages: [String: BookPage] = [:]
        // Sized once for every configured domain: growing it by doubling copied the whole table each time.
        pages.reserveCapacity(configuredNames.count)
        for (domain, entry) in book where domains[domain] != nil { pages[domain] = BookPage(entry: entry) }
        self.book = pages
        schedule(now: now)
    }

    /// Takes one event and returns what to do, in the order of `Action`.
    package mutating func receive(_ event: Event) -> [Action] {
        switch phase {
        case .finished, .failed: return []
        case .starting, .running, .stopping: break
        }
        var actions: [Action] = []
        let now: Date
        switch event {
        case .listening(let at):
            now = at
            guard phase == .starting else { break }
            phase = .running
            actions.append(.notify(.ready(status: statusLine())))
        case .startupFailed(let reason):
            guard phase == .starting else { return [] }
            phase = .failed(reason)
            return [.finish]
        case .tick(let at):
            now = at
        case .checked(let id, let result, let at):
            now = at
            checked(id, result, now: now, into: &actions)
        case .committed(let seq, let run, let at):
            now = at
            committed(seq, run: run, now: now, into: &actions)
        case .appendFailed(let seq, let reason, let at):
            now = at
            appendFailed(seq, reason: reason, now: now, into: &actions)
        case .fenced(let seq, let at):
            now = at
            fenced(seq, into: &actions)
        case .claimed(let grants, let nextDue, let at):
            now = at
            claimed(grants, nextDue: nextDue, now: now, into: &actions)
        case .claimFailed(let reason, let at):
            now = at
            claiming = nil
            nextClaimAt = now.addingTimeInterval(tunables.conditionRetry)
            actions.append(.log(.claimFailed(reason: reason)))
        case .fault(let fault, let message, let at):
            now = at
            pend(conditions.fault(fault, message: message, now: now), webhooks: configuration.webhooks, at: now)
        case .faultCleared(let fault, let at):
            now = at
            pend(conditions.cleared(fault, now: now), webhooks: configuration.webhooks, at: now)
            // Records parked while the store could not commit go now, with the resolution if there is one.
            if !pendingConditions.isEmpty { conditionRetryAt = now }
        case .reload(let configuration, let stored, let at):
            now = at
            reload(configuration, stored: stored, now: now, into: &actions)
        case .silencesRead(let read, let at):
            now = at
            silencesReading = false
            silencesReadAt = now
            if let read { silences = read }
        case .delivered(let attempted, let unrecorded, let stopped, let next, let at):
            now = at
            delivered(attempted: attempted, unrecorded: unrecorded, stopped: stopped, nextAttempt: next, now: now)
        case .outboxUnreadable(_, let at):
            now = at
            deliveryRunning = false
            pauseDelivery(now: now)
        case .shutdown(let at):
            now = at
            if phase == .running || phase == .starting {
                phase = .stopping
                actions.append(.log(.stopping(inFlight: inFlight.count)))
            }
        }
        settle(now: now, into: &actions)
        return actions
    }
}

import AASA
import Foundation
import MonitorEvaluation

extension DaemonCore {
    /// Where the daemon is in its life: it checks nothing before its endpoint listens, and after a graceful
    /// shutdown starts nothing new until what is in flight has been written.
    package enum Phase: Sendable, Hashable {
        case starting, running, stopping, finished
        /// Start-up failed (the endpoint could not bind): nothing was checked; the reason is the error's text.
        case failed(String)
    }

    /// What happened, told by the executor; every time is the executor's clock when it happened.
    package enum Event: Sendable {
        /// The endpoint is bound (or there is none): start-up is complete.
        case listening(now: Date)
        /// The endpoint could not bind: the daemon stops without checking anything.
        case startupFailed(reason: String)
        /// A timer the core asked for went off (any wake-up will do: the core derives what is due).
        case tick(now: Date)
        case checked(Job.ID, CheckResult, now: Date)
        /// The journal committed the batch item `Seq`; `run` is the history run a check's item extended or started.
        case committed(Seq, run: RunMark?, now: Date)
        /// The journal did not keep the batch item `Seq` (a failed transaction fails each of its items).
        case appendFailed(Seq, reason: String, now: Date)
        /// The journal dropped the check of batch item `Seq`: its lease was claimed by another daemon since.
        case fenced(Seq, now: Date)
        /// A claim (`Action.claim`) was granted these domains; `nextDue` is when the earliest domain not granted
        /// becomes due or its lease ends (`nil`: none), by this daemon's clock.
        case claimed([Grant], nextDue: Date?, now: Date)
        /// A claim could not be made (the database cannot be reached); nothing was granted.
        case claimFailed(reason: String, now: Date)
        /// A fault of this process or host (the store cannot commit).
        case fault(MonitorConditions.Fault, message: String, now: Date)
        case faultCleared(MonitorConditions.Fault, now: Date)
        /// A new configuration; `stored` holds the journal's entries of the domains it adds.
        case reload(MonitorConfiguration, stored: [String: BookEntry], now: Date)
        /// The stored silences not yet ended; `nil`: the read failed and the last ones read stay in force.
        case silencesRead([Silence]?, now: Date)
        /// A delivery pass ended: how many deliveries it attempted, how many outcomes it could not write, whether it
        /// stopped early, and the earliest retry when it attempted none.
        case delivered(attempted: Int, unrecorded: Int, stopped: Bool, nextAttempt: Date?, now: Date)
        /// A delivery pass could not read the outbox.
        case outboxUnreadable(reason: String, now: Date)
        /// A graceful shutdown began.
        case shutdown(now: Date)
    }

    /// What the executor does. In one returned array they come in this order: notify, log, append, release,
    /// start, claim, readSilences, wakeDelivery, sleep, finish.
    package enum Action: Sendable {
        case notify(Notice)
        /// A line for the log: the core never logs itself.
        case log(Note)
        /// Writes the batch in one transaction, each item on its own, and answers each item in `seq` order. At
        /// most one batch is outstanding.
        case append(JournalBatch)
        /// Gives back leases granted and not used (a domain no longer configured, or a claim answered during a
        /// shutdown): the domains are free for another daemon at once. Nothing answers.
        case release([Lease])
        /// Probes, evaluates and reduces each job, then answers `.checked`.
        case start([Job])
        /// In a cluster: claims at most `limit` domains due within `slack` seconds, for `leaseFor` seconds, and
        /// answers `.claimed` or `.claimFailed`. At most one claim is outstanding.
        case claim(limit: Int, slack: TimeInterval, leaseFor: TimeInterval)
        /// Reads the stored silences not yet ended at this time and answers `.silencesRead`.
        case readSilences(at: Date)
        /// Runs one delivery pass with these webhooks and this policy (one configuration's) and answers
        /// `.delivered` or `.outboxUnreadable`. At most one pass is outstanding.
        case wakeDelivery(webhooks: [WebhookConfiguration], policy: DeliveryPolicy)
        /// Answers `.tick` at this time at the latest. A later timer still running may stay: it is one extra tick.
        case sleep(until: Date)
        /// The daemon is done (stopped or failed to start): the executor's loop ends.
        case finish
    }

    /// What systemd is told (READY=1 with a status line).
    package enum Notice: Sendable, Hashable {
        case ready(status: String)
        case reloaded(status: String)
    }

    /// The log lines the core asks for.
    package enum Note: Sendable {
        /// A check was committed.
        case committed(DomainReport, LedgerOutcome)
        /// Monitor conditions fired or resolved, now journaled.
        case conditions([MonitorEvent])
        /// A check discarded because this process lacked resources; `current` false when it lacked them only at
        /// some moment of the check (the condition is then not fired again).
        case discarded(domain: String, reason: String, current: Bool)
        /// A check that could not be recorded (an append or a read failed); it is checked at its next interval.
        case notRecorded(domain: String, reason: String)
        /// A check cancelled at shutdown.
        case abandoned(domain: String)
        /// A check dropped by the journal: another daemon claimed its domain while it ran or waited to commit.
        case fenced(domain: String)
        /// A claim failed; the next is tried after `Tunables.conditionRetry`.
        case claimFailed(reason: String)
        /// Changes of the monitor's conditions whose append failed: kept in memory and retried.
        case conditionsNotJournaled(codes: [FindingCode], reason: String)
        /// A graceful shutdown began with this many checks in flight.
        case stopping(inFlight: Int)
    }

    /// One check to run, with everything it needs captured when it started, so a reload during the check cannot
    /// mix two configurations. The probe settings are the executor's (they hold HTTP engine types).
    package struct Job: Sendable {
        /// A domain and the job's number: an answer for an older job of the domain is not taken for this one.
        package struct ID: Sendable, Hashable {
            package var domain: String
            package var number: UInt64
        }

        package var id: ID
        package var expectations: Expectations
        package var evaluation: EvaluationSettings
        /// The ledger policy; its held sources are those in force when the job started (the core judges again
        /// when they changed by the time the report is accepted).
        package var ledger: LedgerPolicy
        /// The domain's book entry: a domain has one check at a time, so it is still the book's at commit.
        package var entry: BookEntry?
        /// In a cluster, the lease the check runs under.
        package var lease: Lease?
        /// The stored silences not yet ended (the reducer keeps those covering the domain).
        package var silences: [Silence]
        /// How many domains are configured (the monitor's network rule counts them).
        package var domainCount: Int
        package var startedAt: Date

        package var domain: String { id.domain }
    }

    /// How a check ended.
    package enum CheckResult: Sendable {
        case reported(Reported)
        /// A fetch failed and this process lacks descriptors or memory now: the check is discarded.
        case resourceShortage(reason: String)
        /// The check could not be completed (the previous origin document could not be read).
        case failed(reason: String)
        /// Cancelled (a second signal at shutdown).
        case abandoned
    }

    /// A check's report and what the reducer made of it.
    package struct Reported: Sendable {
        package var report: DomainReport
        /// Reduced under the job's ledger policy.
        package var outcome: LedgerOutcome
        /// Kept so the core can reduce again under other held sources.
        package var previousOriginDocument: String?
        /// Whether any fetch of the check failed.
        package var failedFetch: Bool
        /// The last moment a probe found this process short of resources, when the check ended.
        package var lastShortage: Date?

        package init(
            report: DomainReport, outcome: LedgerOutcome, previousOriginDocument: String? = nil,
            failedFetch: Bool = false, lastShortage: Date? = nil
        ) {
            self.report = report
            self.outcome = outcome
            self.previousOriginDocument = previousOriginDocument
            self.failedFetch = failedFetch
            self.lastShortage = lastShortage
        }
    }

    /// Journal appends to commit in one transaction, in ascending `seq`; a conditions item comes before the checks
    /// it rides with.
    package struct JournalBatch: Sendable {
        package struct Item: Sendable {
            package var seq: Seq
            package var append: JournalAppend
        }

        package var items: [Item]
    }
}

import AASA
import Foundation
import MonitorCheck
import MonitorCore
import MonitorEndpoint
import MonitorStore

/// The daemon's shared state: the configuration in force, the schedule, what is in flight, and the book — each
/// domain's entry as its last committed check left it. The scheduler, the reload handler, the endpoint and the
/// watchdog all go through it; a check visits it twice, to start and to hand back its committed entry.
actor DaemonRuntime {
    private(set) var configuration: MonitorConfiguration {
        didSet {
            domainsByName = Self.index(configuration)
            jobSettings = JobSettings(configuration)
            shortestInterval = Self.shortestInterval(configuration)
        }
    }
    /// The shortest interval of any configured domain (0 without domains), derived once per configuration: the
    /// start-up window, the batch slack and `/healthz`'s overdue rule read it.
    private var shortestInterval: TimeInterval
    /// The configured domains by name: a check's start and finish look their domain up without scanning the list.
    private var domainsByName: [String: DomainConfiguration]
    /// What every job of this configuration carries, derived once per configuration rather than once per check
    /// (the probe settings parse the `connect_to` rules).
    private var jobSettings: JobSettings
    private var plan = SchedulePlan()
    /// How early a check may start to share a wake-up with others: 1% of the shortest interval, at most a second
    /// (at 100,000 domains every 15 minutes, about 110 checks a second start in one batch instead of 110 wake-ups).
    private var batchSlack: TimeInterval { min(1, shortestInterval / 100) }
    private var inFlight: [String: Date] = [:]
    /// Each watched domain's book entry, replaced only by a check whose journal append committed.
    private var book: [String: BookPage]
    /// The stored silences not yet ended, as `SchedulerService` last read them.
    private var silences: [Silence] = []
    /// The last time the scheduler loop went round: the basis of `/healthz` and the watchdog.
    private(set) var lastTick: Date
    /// Set when something was queued in the outbox since the delivery loop last looked.
    private var outboxChanged = false
    /// The deadline last handed to the scheduler: when it looks again by itself (`nil`: only when woken).
    private var schedulerLooksAt: Date?
    private(set) var checksCompleted = 0
    private(set) var checksFailed = 0
    /// Wakes the scheduler: a check finished (a slot is free, a deadline moved) or the plan was reloaded.
    nonisolated let schedulerWake = WakeSignal()
    /// Wakes the delivery loop: something was written to the outbox.
    nonisolated let deliveryWake = WakeSignal()
    /// The monitor's own conditions (`monitor.*`), folded from every finished check.
    nonisolated let conditions: ConditionBook

    init(
        configuration: MonitorConfiguration, book: [String: BookEntry], now: Date,
        conditions: [MonitorConditions.Condition] = []
    ) {
        // With `shard: K/N` this daemon schedules only its shard's domains; everything downstream reads this list.
        let configuration = configuration.restrictedToShard()
        self.configuration = configuration
        self.domainsByName = Self.index(configuration)
        self.jobSettings = JobSettings(configuration)
        self.shortestInterval = Self.shortestInterval(configuration)
        self.conditions = ConditionBook(active: conditions)
        let configured = Set(configuration.domains.map(\.name))
        var pages: [String: BookPage] = [:]
        // Sized once for every configured domain: growing it by doubling copied the whole table each time.
        pages.reserveCapacity(configured.count)
        for (domain, entry) in book where configured.contains(domain) { pages[domain] = BookPage(entry: entry) }
        self.book = pages
        self.lastTick = now
        plan.startupWindow = Self.startupWindow(
            shortestInterval: shortestInterval, domains: configuration.domains.count)
        plan.setDomains(
            Self.schedule(configuration), lastChecks: Self.lastChecks(self.book), now: now,
            random: { Double.random(in: 0..<1) })
    }

    /// New domains are spread over 2 s plus 50 ms per domain, at most their shortest interval: a few domains are
    /// checked at once (a person starting the daemon sees results), a thousand do not all start in the same second,
    /// and 100,000 at a 15-minute interval take the first interval rather than the CPU's fastest pace.
    static func startupWindow(shortestInterval: TimeInterval, domains: Int) -> TimeInterval {
        min(shortestInterval, 2 + 0.05 * Double(domains))
    }

    /// Whether `name` (an A-label) is configured now: one lookup, for a page or badge about one domain.
    func isConfigured(_ name: String) -> Bool { domainsByName[name] != nil }

    private static func shortestInterval(_ configuration: MonitorConfiguration) -> TimeInterval {
        configuration.domains.map { configuration.interval(for: $0).seconds }.min() ?? 0
    }

    private static func lastChecks(_ book: [String: BookPage]) -> [String: Date] {
        book.compactMapValues { $0.entry.state?.lastCheck }
    }

    private static func index(_ configuration: MonitorConfiguration) -> [String: DomainConfiguration] {
        Dictionary(configuration.domains.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func schedule(_ configuration: MonitorConfiguration) -> [(domain: String, interval: TimeInterval)] {
        configuration.domains.map { ($0.name, configuration.interval(for: $0).seconds) }
    }

    /// Puts a new configuration in force; checks in flight finish with the one they started with. `stored` holds the
    /// journal's entries of domains the book does not hold (added back by this reload): they continue from there.
    func reload(_ configuration: MonitorConfiguration, now: Date, stored: [String: BookEntry] = [:]) {
        let configuration = configuration.restrictedToShard()
        self.configuration = configuration
        plan.startupWindow = Self.startupWindow(
            shortestInterval: shortestInterval, domains: configuration.domains.count)
        let kept = Set(configuration.domains.map(\.name))
        book = book.filter { kept.contains($0.key) }
        for (domain, entry) in stored where kept.contains(domain) && book[domain] == nil {
            book[domain] = BookPage(entry: entry)
        }
        // After the merge: a domain added back continues its schedule from its last check.
        plan.setDomains(
            Self.schedule(configuration), lastChecks: Self.lastChecks(book), now: now,
            random: { Double.random(in: 0..<1) })
        conditions.forget(keeping: kept)
        schedulerWake.notify()
        deliveryWake.notify()
    }

    /// The checks to start now (at most the configured concurrency in flight, never two of one domain), and when
    /// the scheduler must look again by itself (`schedulerDeadline` after they started).
    func takeDueJobs(now: Date) -> (jobs: [CheckPipeline.Job], deadline: Date?) {
        let jobs = dueJobs(now: now)
        let deadline = schedulerDeadline
        schedulerLooksAt = deadline
        return (jobs, deadline)
    }

    /// Whether the scheduler, asleep until `schedulerLooksAt`, must be woken: it waits for a free slot, or the
    /// plan now has a check due before it would look. A finished check's next one is usually an interval away, so
    /// most finishes wake nobody (each wake-up is two task hops and a timer: ~2% of the daemon's CPU at one a check).
    private var schedulerMustWake: Bool {
        guard let looksAt = schedulerLooksAt else { return true }
        return plan.nextWake.map { $0 < looksAt } ?? false
    }

    private func dueJobs(now: Date) -> [CheckPipeline.Job] {
        lastTick = now
        let room = configuration.http.concurrency - inFlight.count
        // Checks due within `batchSlack` start with this batch: one wake-up for all of them, not one each.
        let horizon = now.addingTimeInterval(batchSlack)
        guard room > 0, let first = plan.nextWake, first <= horizon else { return [] }
        var ledger = jobSettings.ledger
        ledger.heldSources = conditions.heldSources
        let count = configuration.domains.count
        var jobs: [CheckPipeline.Job] = []
        for name in plan.takeDue(at: horizon, limit: room) {
            // Removed and added back by two reloads while its check still runs: the plan keeps it in flight, and
            // that check's finish schedules the next one, so two checks of one domain never overlap.
            guard inFlight[name] == nil else { continue }
            guard let domain = domainsByName[name] else {
                // Not configured (the plan and the index come from one configuration, so this does not happen):
                // put it back rather than leave it in flight forever.
                plan.finished(name, at: now, cdnBehind: false, cdnExpiry: nil, random: { Double.random(in: 0..<1) })
                continue
            }
            inFlight[name] = now
            jobs.append(
                CheckPipeline.Job(
                    domain: name, expectations: domain.expect, probe: jobSettings.probe,
                    evaluation: jobSettings.evaluation, ledger: ledger, entry: book[name]?.entry, silences: silences,
                    domainCount: count))
        }
        return jobs
    }

    /// Takes a finished check's committed entry into the book (or notes its failure: `nil`) and schedules the
    /// domain's next check.
    func finished(_ domain: String, outcome: CheckPipeline.Outcome?, now: Date) {
        inFlight[domain] = nil
        // A domain removed by a reload while its check ran is not brought back.
        let configured = domainsByName[domain] != nil
        // Only a check that queued deliveries sends the delivery loop to the database (a removed domain's too: its
        // deliveries are written).
        if let outcome, outcome.queued {
            outboxChanged = true
            deliveryWake.notify()
        }
        if let outcome, configured {
            let page = book[domain] ?? BookPage(entry: outcome.entry)
            page.entry = outcome.entry
            page.checks.add(outcome.report.verdict)
            book[domain] = page
            checksCompleted += 1
        } else if outcome == nil {
            checksFailed += 1
        }
        let state = book[domain]?.entry.state
        let behind = state.map { $0.verdict == .cdnStale || $0.verdict == .cdnMissing } ?? false
        plan.finished(
            domain, at: now, cdnBehind: behind, cdnExpiry: state?.expectedRefresh,
            random: { Double.random(in: 0..<1) })
        if schedulerMustWake { schedulerWake.notify() }
    }

    /// Puts the stored silences not yet ended in force for the checks that start from now on.
    func updateSilences(_ silences: [Silence]) {
        self.silences = silences
    }

    /// Notes that something was written to the outbox outside a check (a monitor condition's deliveries).
    func markOutboxChanged() {
        outboxChanged = true
        deliveryWake.notify()
    }

    /// When the scheduler must look again by itself: the next due check, or `nil` while every slot is taken (then
    /// only a finishing check can start another).
    var schedulerDeadline: Date? {
        inFlight.count >= configuration.http.concurrency ? nil : plan.nextWake
    }

    /// Whether a check was recorded since the last call (and clears the mark).
    func takeOutboxChanged() -> Bool {
        defer { outboxChanged = false }
        return outboxChanged
    }

    /// When the scheduler should look again.
    var nextWake: Date? { plan.nextWake }

    /// How many checks are running.
    var runningCount: Int { inFlight.count }

    /// Healthy while the loop goes round and no check has been running far longer than its timeouts allow.
    func health(now: Date) -> HealthCheck {
        if now.timeIntervalSince(lastTick) > 30 {
            return .unhealthy(reason: "the scheduler loop has not run for \(Int(now.timeIntervalSince(lastTick))) s")
        }
        let limit = configuration.http.timeout.seconds * 4 + 60
        if let (domain, started) = inFlight.min(by: { $0.value < $1.value }), now.timeIntervalSince(started) > limit {
            return .unhealthy(reason: "the check of \(domain) has run for \(Int(now.timeIntervalSince(started))) s")
        }
        return .healthy
    }

    /// Why checks are a whole interval behind (the oldest due check waits longer than the shortest interval, at
    /// least a minute), or `nil`. For `/healthz` only: an overloaded daemon is not stuck, so the watchdog ignores it.
    func overdue(now: Date) -> String? {
        guard let wake = plan.nextWake, now.timeIntervalSince(wake) > max(60, shortestInterval) else { return nil }
        return "checks are overdue: one has waited \(Int(now.timeIntervalSince(wake))) s past its time"
    }

    /// The metrics of every configured domain that has been checked.
    func metrics(now: Date) -> [DomainMetrics] {
        configuration.domains.compactMap { domain in
            guard let page = book[domain.name], let state = page.entry.state else { return nil }
            return DomainMetrics(
                domain: domain.name, verdict: state.verdict, cdnInSync: state.cdnInSync,
                staleSeconds: state.staleSince.map { max(0, now.timeIntervalSince($0)) },
                certificateNotAfter: state.certificateNotAfter, lastCheck: state.lastCheck,
                lastCheckDuration: state.lastDuration, lastPropagationDelay: state.lastPropagationDelay,
                checksByVerdict: page.checks.byVerdict)
        }
    }

    /// One line for `systemctl status`.
    func statusLine() -> String {
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

/// The settings a configuration gives every check job.
private struct JobSettings {
    var probe: ProbeSettings
    var evaluation: EvaluationSettings
    var ledger: LedgerPolicy

    init(_ configuration: MonitorConfiguration) {
        probe = configuration.probeSettings
        evaluation = configuration.evaluationSettings
        ledger = configuration.ledgerPolicy
    }
}

extension DaemonRuntime {
    /// A runtime whose book holds `states` and nothing else (no alert states, no open runs): for tests of the
    /// schedule, which reads only the states' check times.
    init(configuration: MonitorConfiguration, states: [DomainState], now: Date) {
        self.init(
            configuration: configuration,
            book: Dictionary(states.map { ($0.domain, BookEntry(state: $0)) }, uniquingKeysWith: { first, _ in first }),
            now: now)
    }
}

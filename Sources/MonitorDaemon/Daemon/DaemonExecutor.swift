import AASA
import Foundation
import HTTPEngine
import Logging
import MonitorCheck
import MonitorCore
import MonitorEndpoint
import MonitorEvaluation
import MonitorPostgres
import MonitorStore
import ServiceLifecycle

/// Runs the daemon's core (`DaemonCore`): feeds it events from one stream, in order, and performs the actions it
/// returns. Checks, the journal batch, silence reads, delivery passes and timers run as child tasks of one task
/// group and come back as events; nothing in the loop's body waits, so the core sees every event in turn.
///
/// Other services talk to it by events (`send(_:)`) and read it through its methods.
actor DaemonExecutor {
    /// An event for the core, or one of the executor's own timers going off.
    private enum Input: Sendable {
        case core(DaemonCore.Event)
        case timer(id: UInt64)
    }

    private var core: DaemonCore
    /// The probe settings of the configuration in force (they hold HTTP engine types, so the core does not).
    private var probe: ProbeSettings
    private let journal: any Journal
    private let outbox: any DeliveryQueue
    /// A cluster's claims (`store: postgres:`); `nil` on a daemon of its own.
    let cluster: PostgresJournal?
    private let check: CheckRun
    private let deliverer: OutboxDeliverer
    private let notifier: SystemdNotifier
    /// The daemon's own logger (`ready`), and the checks' (`scheduler`).
    private let daemonLogger: Logger
    let logger = Logger(label: "scheduler")
    let clock: @Sendable () -> Date
    private let inbox: AsyncStream<Input>
    private nonisolated let input: AsyncStream<Input>.Continuation
    /// The latest wake-up the core asked for, and the timers running (by id, with their deadline).
    private var wanted: Date?
    private var timers: [UInt64: Date] = [:]
    private var nextTimer: UInt64 = 1
    /// The longest the executor goes without a tick when no timer runs (a safety net; the core asks for less).
    private let longestSleep: TimeInterval

    /// An executor writing to `store`'s journal and outbox, or, in a cluster, to `cluster`'s.
    init(
        core: DaemonCore, store: MonitorStore, cluster: PostgresJournal? = nil, engine: CurlEngine,
        notifier: SystemdNotifier, logger: Logger, clock: @escaping @Sendable () -> Date
    ) {
        self.core = core
        self.probe = core.configuration.probeSettings
        let journal: any Journal = cluster ?? store
        self.journal = journal
        self.outbox = cluster?.store ?? store
        self.cluster = cluster
        self.check = CheckRun(engine: engine, journal: journal, memo: LintMemo(), clock: clock)
        self.deliverer = OutboxDeliverer(
            store: outbox, transport: engine, logger: Logger(label: "delivery"), clock: clock)
        self.notifier = notifier
        self.daemonLogger = logger
        self.clock = clock
        self.longestSleep = DaemonCore.Tunables().longestSleep
        (inbox, input) = AsyncStream.makeStream(of: Input.self)
    }

    /// Tells the core what happened (from any task).
    nonisolated func send(_ event: DaemonCore.Event) {
        input.yield(.core(event))
    }

    /// Runs until the core finishes (a graceful shutdown drained what was in flight) or the task is cancelled.
    /// Throws `EndpointBindError` when start-up failed.
    func drive() async throws {
        await withDiscardingTaskGroup { group in
            for await item in inbox {
                let event: DaemonCore.Event
                switch item {
                case .core(let coreEvent):
                    event = coreEvent
                case .timer(let id):
                    if timers.removeValue(forKey: id) == wanted { wanted = nil }
                    event = .tick(now: clock())
                }
                if case .reload(let configuration, _, _) = event {
                    probe = configuration.probeSettings
                    if let cluster { register(configuration, in: cluster, group: &group) }
                }
                for action in core.receive(event) { perform(action, in: &group) }
                if core.phase == .finished { break }
                if case .failed = core.phase { break }
                armTimer(in: &group)
            }
            group.cancelAll()
        }
        input.finish()
        if case .failed(let reason) = core.phase { throw EndpointBindError(reason: reason) }
    }

    private func perform(_ action: DaemonCore.Action, in group: inout DiscardingTaskGroup) {
        let input = input
        let clock = clock
        switch action {
        case .notify(let notice):
            switch notice {
            case .ready(let status):
                try? notifier.send(.ready, .status(status))
                daemonLogger.notice("ready")
            case .reloaded(let status):
                try? notifier.send(.ready, .status(status))
            }
        case .log(let note):
            log(note)
        case .append(let batch):
            let journal = journal
            group.addTask {
                let results: [JournalResult]
                do {
                    results = try await journal.append(batch.items.map(\.append))
                } catch {
                    results = Array(repeating: .failed(reason: "\(error)"), count: batch.items.count)
                }
                let now = clock()
                for (item, result) in zip(batch.items, results) {
                    switch result {
                    case .committed(let run): input.yield(.core(.committed(item.seq, run: run, now: now)))
                    case .failed(let reason): input.yield(.core(.appendFailed(item.seq, reason: reason, now: now)))
                    case .fenced: input.yield(.core(.fenced(item.seq, now: now)))
                    }
                }
            }
        case .start(let jobs):
            let check = check
            let settings = probe
            for job in jobs {
                group.addTask {
                    let result = await check.run(job, settings: settings)
                    input.yield(.core(.checked(job.id, result, now: clock())))
                }
            }
        case .claim(let limit, let slack, let leaseFor):
            claim(limit: limit, slack: slack, leaseFor: leaseFor, in: &group)
        case .release(let leases):
            guard let cluster else { break }
            let logger = logger
            group.addTask {
                do { try await cluster.store.release(leases) } catch {
                    // Not fatal: the leases end by themselves.
                    logger.warning("leases not given back; they end by themselves", metadata: ["error": "\(error)"])
                }
            }
        case .readSilences(let at):
            let journal = journal
            let logger = logger
            group.addTask {
                do {
                    let silences = try await journal.silences(at: at)
                    input.yield(.core(.silencesRead(silences, now: clock())))
                } catch {
                    logger.warning(
                        "silences could not be read; the last ones read stay in force", metadata: ["error": "\(error)"])
                    input.yield(.core(.silencesRead(nil, now: clock())))
                }
            }
        case .wakeDelivery(let webhooks, let policy):
            let deliverer = deliverer
            let outbox = outbox
            let logger = logger
            group.addTask {
                do {
                    let pass = try await deliverer.deliverDue(webhooks: webhooks, policy: policy)
                    let next = pass.attempted == 0 ? try await outbox.nextAttemptTime() : nil
                    input.yield(
                        .core(
                            .delivered(
                                attempted: pass.attempted, unrecorded: pass.unrecorded, stopped: pass.stopped,
                                nextAttempt: next, now: clock())))
                } catch {
                    logger.error("outbox could not be read", metadata: ["error": "\(error)"])
                    input.yield(.core(.outboxUnreadable(reason: "\(error)", now: clock())))
                }
            }
        case .sleep(let until):
            wanted = until
        case .finish:
            break
        }
    }

    /// Keeps one timer running for the wake-up the core asked for: a timer already due earlier covers it (its tick
    /// lets the core ask again), and without any the executor still ticks every `longestSleep`.
    private func armTimer(in group: inout DiscardingTaskGroup) {
        let deadline = wanted ?? clock().addingTimeInterval(longestSleep)
        guard !timers.values.contains(where: { $0 <= deadline }) else { return }
        if wanted == nil { wanted = deadline }
        let id = nextTimer
        nextTimer += 1
        timers[id] = deadline
        let input = input
        let clock = clock
        group.addTask {
            let seconds = max(0, deadline.timeIntervalSince(clock()))
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up)) + 1))
            input.yield(.timer(id: id))
        }
    }
}

extension DaemonExecutor {
    /// The configuration in force (restricted to this daemon's shard).
    var configuration: MonitorConfiguration { core.configuration }

    /// Whether `name` (an A-label) is configured now.
    func isConfigured(_ name: String) -> Bool { core.isConfigured(name) }

    /// The configured domains' names.
    var configuredNames: [String] { core.configuredNames }

    /// When the core last handled an event.
    var lastTick: Date { core.lastTick }

    /// The monitor's own conditions in force.
    var activeConditions: [FindingCode: MonitorConditions.Condition] { core.activeConditions }

    /// One line for `systemctl status`.
    func statusLine() -> String { core.statusLine() }

    /// Healthy while the loop goes round and no check runs far longer than its timeouts allow.
    func health(now: Date) -> HealthCheck { core.health(now: now) }

    /// Why checks are a whole interval behind, or `nil`.
    func overdue(now: Date) -> String? { core.overdue(now: now) }

    /// The metrics of every configured domain that has been checked.
    func metrics(now: Date) -> [DomainMetrics] {
        core.checkedDomains { domain, state, checksByVerdict in
            DomainMetrics(
                domain: domain, verdict: state.verdict, cdnInSync: state.cdnInSync,
                staleSeconds: state.staleSince.map { max(0, now.timeIntervalSince($0)) },
                certificateNotAfter: state.certificateNotAfter, lastCheck: state.lastCheck,
                lastCheckDuration: state.lastDuration, lastPropagationDelay: state.lastPropagationDelay,
                checksByVerdict: checksByVerdict)
        }
    }
}

extension DaemonExecutor: Service {
    nonisolated func run() async throws {
        let clock = clock
        try await withGracefulShutdownHandler {
            try await self.drive()
        } onGracefulShutdown: { [self] in
            send(.shutdown(now: clock()))
        }
    }
}

extension DaemonExecutor: CustomStringConvertible {
    /// A short name for lifecycle logs.
    nonisolated var description: String { "scheduler" }
}

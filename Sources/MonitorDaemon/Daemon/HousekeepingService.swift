import AASA
import Foundation
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore
import ServiceLifecycle

/// The daemon's background chores: the heartbeat `status` reads, retention, WAL checkpoints, the store's own
/// health (a deleted or replaced file, a failing commit, a full disk), and systemd's watchdog and status line.
struct HousekeepingService: Service {
    let executor: DaemonExecutor
    let store: MonitorStore
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: @Sendable () -> Date
    /// How often the heartbeat is written; `status` calls the daemon alive while it is younger than 3 periods.
    var heartbeatPeriod: Duration = .seconds(5)
    var prunePeriod: TimeInterval = 3600
    /// How often the WAL is checkpointed and truncated in any case.
    var checkpointPeriod: TimeInterval = 600
    /// How often recovery (checkpoint, and on a full disk shedding history) is tried while commits fail.
    var recoveryPeriod: TimeInterval = 10

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await loop()
        } onGracefulShutdown: { [store] in
            store.health.changed.notify()
        }
    }

    /// Does each chore when it falls due. Retention and checkpoints run at the heartbeat after their period; the
    /// heartbeat (every 5 s) and the watchdog are the deadlines, a store that starts or stops failing the event.
    private func loop() async throws {
        let pid = getpid()
        var lastPrune = Date.distantPast
        var lastCheckpoint = clock()
        var lastRecovery = Date.distantPast
        /// The failure the history was last shed for: once per failure, so a disk kept full by something else does
        /// not lose half of what is left every ten seconds.
        var shedFor: Date?
        var lastWatchdog = ContinuousClock.now
        let watchdog = notifier.watchdogInterval
        var lastBeat = ContinuousClock.now - heartbeatPeriod
        /// `nil` until the first pass: a `monitor.store` restored from the journal is cleared once the store commits.
        var storeFaultTold: Bool?
        while !Task.isCancelledOrShuttingDown {
            let now = clock()
            if ContinuousClock.now - lastBeat >= heartbeatPeriod {
                lastBeat = ContinuousClock.now
                try await checkFile()
                do {
                    try await store.beat(pid: pid, at: now, version: MonitorVersion.current)
                } catch {
                    logger.error("heartbeat could not be written", metadata: ["error": "\(error)"])
                }
                let trouble = DaemonHealth.storeTrouble(store.health.status)
                try? notifier.send(.status(await executor.statusLine() + (trouble.map { "; \($0)" } ?? "")))
            }
            trackStoreCondition(now: now, told: &storeFaultTold)
            if case .failing(let since, _, let full) = store.health.status,
                now.timeIntervalSince(lastRecovery) >= recoveryPeriod
            {
                lastRecovery = now
                lastCheckpoint = now
                let shed = full && shedFor != since
                if shed { shedFor = since }
                await recover(shed: shed)
            } else if now.timeIntervalSince(lastCheckpoint) >= checkpointPeriod {
                lastCheckpoint = now
                do {
                    try await store.checkpoint()
                } catch {
                    logger.warning("the WAL could not be checkpointed", metadata: ["error": "\(error)"])
                }
            }
            if now.timeIntervalSince(lastPrune) >= prunePeriod {
                lastPrune = now
                await prune(now: now)
            }
            if let watchdog, ContinuousClock.now - lastWatchdog >= watchdog {
                // Keep-alives only while the scheduler makes progress, so systemd restarts a stuck daemon.
                // A store whose writes do not return (stuck) stops the keep-alives too; one whose writes fail does not:
                // it retries by itself (a full disk recovers once space returns) and `/healthz` says 503 meanwhile.
                let stuck: Bool
                if case .stuck = store.health.status { stuck = true } else { stuck = false }
                if !stuck, case .healthy = await executor.health(now: now) {
                    try? notifier.send(.watchdog)
                    lastWatchdog = ContinuousClock.now
                }
            }
            // Sleep until the next chore falls due, or until the store starts or stops failing, or we stop.
            var due = [lastBeat + heartbeatPeriod]
            if let watchdog { due.append(lastWatchdog + watchdog) }
            await store.health.changed.wait(until: due.min()!)
        }
    }

    /// A deleted or replaced database file stops the daemon (after re-creating a deleted one from the open copy),
    /// so that the restart reopens the file at the path with history and alert states intact.
    private func checkFile() async throws {
        guard let change = store.fileChange() else { return }
        var restored = false
        if change == .deleted {
            logger.critical(
                "the state database was deleted under the running daemon", metadata: ["path": "\(store.path)"])
            do {
                try await store.restoreDeletedFile()
                restored = true
            } catch {
                logger.critical("the state database could not be re-created", metadata: ["error": "\(error)"])
            }
        }
        let failure = StoreFileChangedError(path: store.path, change: change, restored: restored)
        logger.critical("\(failure)")
        throw failure
    }

    /// `monitor.store` fires in memory while the store cannot commit (`/healthz` and the status line show it), and
    /// also for a failure it has already recovered from; once it commits again, the core writes the firing and its
    /// resolution together, so webhooks learn how long it lasted. `told`: whether the core was last told of a
    /// failure (true) or of its end (false); `nil` before the first pass, so a `monitor.store` restored from the
    /// journal at start is cleared once. Each change is told once: the core's own retry pace stays in force.
    private func trackStoreCondition(now: Date, told: inout Bool?) {
        let unseen = store.health.takeUnseenFailure()
        let trouble =
            DaemonHealth.storeTrouble(store.health.status)
            ?? unseen.map {
                "monitor.store: the state database could not commit at \(RFC3339.string($0.since)): \($0.reason)"
            }
        if let trouble, told != true {
            logger.critical("\(trouble)")
            executor.send(.fault(.store, message: trouble + "; checks are not recorded meanwhile", now: now))
            told = true
        }
        // Resolved once the store commits and, for a failure seen just now, has committed since it.
        guard case .committing = store.health.status,
            unseen == nil || (store.health.lastCommit.map { $0 > unseen!.since } ?? false)
        else { return }
        guard told != false else { return }
        if told == true { logger.notice("the state database commits again") }
        told = false
        executor.send(.faultCleared(.store, now: now))
    }

    /// After a failed commit: checkpoint and truncate the WAL, and on a full disk (once per failure) shed the older
    /// history first.
    private func recover(shed: Bool) async {
        do {
            try await store.checkpoint()
        } catch {
            logger.warning("the WAL could not be checkpointed after a failed commit", metadata: ["error": "\(error)"])
        }
        guard shed else { return }
        do {
            let shed = try await store.shedHistory()
            logger.warning(
                "the disk is full: shed the older half of the history to keep alert states and deliveries",
                metadata: ["rows": "\(shed)"])
            try await store.checkpoint()
        } catch {
            logger.error("the disk is full and no history could be shed yet", metadata: ["error": "\(error)"])
        }
    }

    private func prune(now: Date) async {
        let retention = await executor.configuration.retention.seconds
        do {
            let result = try await store.prune(olderThan: now.addingTimeInterval(-retention))
            logger.info(
                "retention applied",
                metadata: [
                    "runs": "\(result.runs)", "timeline_events": "\(result.timelineEvents)",
                    "documents": "\(result.documents)", "deliveries": "\(result.deliveries)",
                ])
        } catch {
            logger.error("retention could not be applied", metadata: ["error": "\(error)"])
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// True once the task is cancelled or the service group began a graceful shutdown.
    static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}

extension HousekeepingService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "housekeeping" }
}

import Foundation
import Logging
import ServiceLifecycle

/// The daemon's background chores: the heartbeat `status` reads, retention, and systemd's watchdog and status line.
struct HousekeepingService: Service {
    let runtime: DaemonRuntime
    let store: MonitorStore
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: @Sendable () -> Date
    /// How often the heartbeat is written; `status` calls the daemon alive while it is younger than 3 periods.
    var heartbeatPeriod: Duration = .seconds(5)
    var prunePeriod: TimeInterval = 3600

    func run() async throws {
        let pid = getpid()
        var lastPrune = Date.distantPast
        var lastWatchdog = ContinuousClock.now
        let watchdog = notifier.watchdogInterval
        var step = heartbeatPeriod
        if let watchdog, watchdog < step { step = watchdog }
        var lastBeat = ContinuousClock.now - heartbeatPeriod
        while !Task.isCancelledOrShuttingDown {
            let now = clock()
            if ContinuousClock.now - lastBeat >= heartbeatPeriod {
                lastBeat = ContinuousClock.now
                do {
                    try await store.beat(pid: pid, at: now, version: MonitorVersion.current)
                } catch {
                    logger.error("heartbeat could not be written", metadata: ["error": "\(error)"])
                }
                try? notifier.send(.status(await runtime.statusLine()))
            }
            if now.timeIntervalSince(lastPrune) >= prunePeriod {
                lastPrune = now
                await prune(now: now)
            }
            if let watchdog, ContinuousClock.now - lastWatchdog >= watchdog {
                // Keep-alives only while the scheduler makes progress, so systemd restarts a stuck daemon.
                if case .healthy = await runtime.health(now: now) {
                    try? notifier.send(.watchdog)
                    lastWatchdog = ContinuousClock.now
                }
            }
            try? await Task.sleep(for: min(step, .seconds(1)))
        }
    }

    private func prune(now: Date) async {
        let retention = await runtime.configuration.retention.seconds
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

import AASA
import Foundation
import HTTPEngine
import Logging
import MonitorCheck
import MonitorCore
import MonitorStore
import ServiceLifecycle
import Synchronization

/// Starts each domain's check when it is due, at most the configured number at once, and hands each committed
/// result back to the runtime.
///
/// On graceful shutdown it starts nothing new and waits for the checks in flight, which are bounded by the
/// request timeouts; each result is one journal append, so the database stays consistent whether a check
/// finishes or is cancelled by a second signal.
struct SchedulerService: Service {
    let runtime: DaemonRuntime
    let pipeline: CheckPipeline
    let logger: Logger
    let clock: @Sendable () -> Date
    /// Called before the loop runs; it waits until start-up is complete (systemd's READY=1 goes out then) and
    /// returns false when start-up failed, so that nothing is checked.
    let onStart: @Sendable () async -> Bool
    /// The longest the loop sleeps without a deadline or a signal: it still goes round this often so that
    /// `/healthz` and the watchdog see it alive on a daemon whose next check is far away.
    var longestSleep: Duration = .seconds(10)
    /// How old the runtime's copy of the stored silences may be when checks start: `silence add` and `expire` write
    /// them from another process, and they count from the checks started this long after.
    var silenceRefresh: TimeInterval = 0.5

    func run() async throws {
        let stopping = Mutex(false)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                guard await onStart() else { return }
                var silencesRead = Date.distantPast
                while !stopping.withLock({ $0 }) && !Task.isCancelled {
                    let now = clock()
                    if now.timeIntervalSince(silencesRead) >= silenceRefresh {
                        silencesRead = now
                        await refreshSilences(now: now)
                    }
                    // One visit to the runtime: the checks to start and when to look again.
                    let (jobs, deadline) = await runtime.takeDueJobs(now: now)
                    for job in jobs {
                        group.addTask { await execute(job) }
                    }
                    // Sleep until the next check is due, a check finishes, the plan is reloaded or we stop.
                    var wait = longestSleep
                    if let wake = deadline {
                        let seconds = max(0, wake.timeIntervalSince(clock()))
                        wait = min(longestSleep, .milliseconds(Int((seconds * 1000).rounded(.up))))
                    }
                    await runtime.schedulerWake.wait(until: .now + max(wait, .milliseconds(1)))
                }
                let running = await runtime.runningCount
                logger.info("scheduler stopping", metadata: ["in_flight": "\(running)"])
            }
        } onGracefulShutdown: {
            stopping.withLock { $0 = true }
            runtime.schedulerWake.notify()
        }
    }

    /// Reads the stored silences not yet ended into the runtime; on a failed read the last ones stay in force.
    private func refreshSilences(now: Date) async {
        do {
            await runtime.updateSilences(try await pipeline.store.reader.silences(at: now))
        } catch {
            logger.warning(
                "silences could not be read; the last ones read stay in force", metadata: ["error": "\(error)"])
        }
    }

    private func execute(_ job: CheckPipeline.Job) async {
        do {
            let outcome = try await pipeline.run(job)
            await runtime.finished(job.domain, outcome: outcome, now: clock())
            log(outcome)
            ConditionLog.log(outcome.conditionEvents, logger: logger)
        } catch let fault as LocalResources.Fault {
            // Our own trouble, not the domain's: the check is discarded and, while the trouble lasts, the monitor's
            // condition fires. A check that only overlapped a shortage already over (a later check may have resolved
            // the condition) must not fire it again: that would page a resolved trouble twice.
            await runtime.finished(job.domain, outcome: nil, now: clock())
            guard fault.isCurrent else {
                logger.notice(
                    "check discarded: this process lacked resources while it ran",
                    metadata: ["domain": "\(job.domain)", "reason": "\(fault.reason)"])
                return
            }
            logger.error(
                "check discarded: this process lacks resources",
                metadata: ["domain": "\(job.domain)", "reason": "\(fault.reason)"])
            if let changes = runtime.conditions.fault(.resources, message: fault.reason, now: clock()) {
                await ConditionLog.journal(changes, pipeline: pipeline, runtime: runtime, logger: logger)
            }
        } catch is CancellationError {
            await runtime.finished(job.domain, outcome: nil, now: clock())
            logger.notice("check abandoned at shutdown", metadata: ["domain": "\(job.domain)"])
        } catch {
            await runtime.finished(job.domain, outcome: nil, now: clock())
            logger.error(
                "check could not be recorded; it will be retried at the next interval",
                metadata: ["domain": "\(job.domain)", "error": "\(error)"])
        }
    }

    private func log(_ outcome: CheckPipeline.Outcome) {
        let report = outcome.report
        let level: Logger.Level =
            report.verdict == .ready ? .info : (report.verdict == .originBroken ? .error : .warning)
        // Built only when it will be written: at a thousand domains the per-check line is most of the log's cost.
        if logger.logLevel <= level {
            // Each code with its source (`origin.status@origin.root`): one code can come from several places.
            // Causes first, then what follows from them, as everywhere else a person reads findings.
            let alerting = report.findings.filter { $0.severity != .info }
            let problems = (alerting.filter { $0.causedBy == nil } + alerting.filter { $0.causedBy != nil }).map {
                "\($0.code)@\($0.source.rawValue)"
            }
            var metadata: Logger.Metadata = [
                "domain": "\(report.domain)", "verdict": "\(report.verdict.rawValue)",
                "duration": "\(String(format: "%.3f", report.durationSeconds))",
            ]
            if !problems.isEmpty { metadata["codes"] = "\(problems.joined(separator: ","))" }
            logger.log(level: level, "checked", metadata: metadata)
        }
        // Alerts firing and resolving are in the timeline for `history`; the lines below log them with their id.
        for entry in outcome.ledger.timeline where entry.kind != .alertFiring && entry.kind != .alertResolved {
            var fields: Logger.Metadata = ["domain": "\(report.domain)"]
            for (key, value) in entry.detail {
                fields[key] = "\(value.stringValue ?? value.logText)"
            }
            logger.notice("\(entry.kind.rawValue)", metadata: fields)
        }
        for event in outcome.ledger.events {
            guard let alert = event.alert else { continue }
            logger.notice(
                "\(event.type.rawValue)",
                metadata: [
                    "domain": "\(event.domain)", "code": "\(alert.code)", "source": "\(alert.source.rawValue)",
                    "severity": "\(alert.severity.rawValue)", "id": "\(event.id)",
                ])
        }
    }
}

extension SchedulerService: CustomStringConvertible {
    /// A short name for lifecycle logs, which would otherwise print every property (the environment included).
    var description: String { "scheduler" }
}

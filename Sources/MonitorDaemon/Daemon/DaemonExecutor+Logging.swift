import AASA
import Foundation
import Logging
import MonitorCore
import MonitorEvaluation

/// The log lines of the core's notes: the core decides what happened, these words say it.
extension DaemonExecutor {
    func log(_ note: DaemonCore.Note) {
        switch note {
        case .committed(let report, let outcome):
            logCheck(report, outcome)
        case .conditions(let events):
            logConditions(events)
        case .discarded(let domain, let reason, let current):
            // Our own trouble, not the domain's: the check is discarded. One that only overlapped a shortage
            // already over does not fire `monitor.resources` again.
            if current {
                logger.error(
                    "check discarded: this process lacks resources",
                    metadata: ["domain": "\(domain)", "reason": "\(reason)"])
            } else {
                logger.notice(
                    "check discarded: this process lacked resources while it ran",
                    metadata: ["domain": "\(domain)", "reason": "\(reason)"])
            }
        case .notRecorded(let domain, let reason):
            logger.error(
                "check could not be recorded; it will be retried at the next interval",
                metadata: ["domain": "\(domain)", "error": "\(reason)"])
        case .abandoned(let domain):
            logger.notice("check abandoned at shutdown", metadata: ["domain": "\(domain)"])
        case .fenced(let domain):
            logger.warning(
                """
                check dropped: another daemon of the cluster claimed the domain while this one checked it (this \
                daemon was paused, cut off from the database or slow past its lease); nothing of it is alerted
                """,
                metadata: ["domain": "\(domain)"])
        case .claimFailed(let reason):
            logger.error(
                "could not claim due domains from the database; trying again in 10 s", metadata: ["error": "\(reason)"])
        case .conditionsNotJournaled(let codes, let reason):
            // Kept in memory (status line, /healthz) and retried: nothing is lost.
            logger.error(
                "a monitor condition could not be written to the state database yet; it is written with the next append that commits",
                metadata: ["codes": "\(codes.map(\.id).joined(separator: ","))", "error": "\(reason)"])
        case .stopping(let inFlight):
            logger.info("scheduler stopping", metadata: ["in_flight": "\(inFlight)"])
        }
    }

    /// Logs each `monitor.firing` / `monitor.resolved` event once it is journaled.
    private func logConditions(_ events: [MonitorEvent]) {
        for event in events {
            let code: FindingCode
            let since: Date
            switch event.payload {
            case .monitorFiring(let condition): (code, since) = (condition.code, condition.since)
            case .monitorResolved(let condition, let started): (code, since) = (condition, started)
            default: continue
            }
            logger.notice("\(event.type.rawValue)", metadata: ["code": "\(code)", "since": "\(RFC3339.string(since))"])
        }
    }

    private func logCheck(_ report: DomainReport, _ outcome: LedgerOutcome) {
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
        for entry in outcome.timeline where entry.kind != .alertFiring && entry.kind != .alertResolved {
            var fields: Logger.Metadata = ["domain": "\(report.domain)"]
            for (key, value) in entry.detail {
                fields[key] = "\(value.stringValue ?? value.logText)"
            }
            logger.notice("\(entry.kind.rawValue)", metadata: fields)
        }
        for event in outcome.events {
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

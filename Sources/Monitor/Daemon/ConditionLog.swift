import AASA
import Foundation
import Logging
import MonitorCore

/// The log lines of the monitor's own conditions, and their journal append when no check carries them.
enum ConditionLog {
    /// Logs each `monitor.firing` / `monitor.resolved` event once it is journaled.
    static func log(_ events: [MonitorEvent], logger: Logger) {
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

    /// Journals `changes` on their own (a fault seen outside a check) and wakes delivery; logs either way.
    static func journal(
        _ changes: ConditionBook.Changes, pipeline: CheckPipeline, runtime: DaemonRuntime, logger: Logger
    ) async {
        let webhooks = await runtime.configuration.webhooks
        if let events = await pipeline.journal(changes, webhooks: webhooks) {
            log(events, logger: logger)
            await runtime.markOutboxChanged()
        } else {
            // Kept in memory (status line, /healthz) and put back for the next append: nothing is lost.
            logger.error(
                "a monitor condition could not be written to the state database yet; it is written with the next check that commits",
                metadata: ["codes": "\(changes.transitions.map(\.condition.code.id).joined(separator: ","))"])
        }
    }
}

import AASA
import Foundation
import MonitorCore
import MonitorEvaluation
import MonitorStore

/// The daemon's health as `/healthz`, systemd's status line and the watchdog see it: the scheduler's progress and
/// whether the state database commits.
enum DaemonHealth {
    /// Unhealthy while the store cannot commit (failing or stuck), the process lacks descriptors or memory, or the
    /// scheduler is behind; else healthy.
    static func check(executor: DaemonExecutor, store: MonitorStore, now: Date) async -> HealthCheck {
        if let trouble = storeTrouble(store.health.status) { return .unhealthy(reason: trouble) }
        if let fault = await executor.activeConditions[.monitorResources] {
            return .unhealthy(reason: "\(FindingCode.monitorResources): \(fault.message)")
        }
        if let overdue = await executor.overdue(now: now) { return .unhealthy(reason: overdue) }
        return await executor.health(now: now)
    }

    /// One sentence about a store that cannot commit, or `nil` when it commits.
    static func storeTrouble(_ status: StoreHealth.Status) -> String? {
        switch status {
        case .committing: nil
        case .failing(let since, let reason, _):
            "monitor.store: the state database cannot commit since \(RFC3339.string(since)): \(reason)"
        case .stuck(let since):
            "monitor.store: a write to the state database has not returned since \(RFC3339.string(since))"
        }
    }
}

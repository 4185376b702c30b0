import Foundation
import MonitorEvaluation

extension MaintenanceWindow {
    /// The occurrence open at `now`, as a silence, or `nil` when the window is closed.
    public func silence(at now: Date) -> Silence? {
        guard let start = openedAt(before: now) else { return nil }
        return Silence(
            id: "maintenance:\(name)", domains: domains, startsAt: start, endsAt: start.addingTimeInterval(length),
            author: "configuration", reason: "maintenance window \(name)")
    }
}

extension Array where Element == MaintenanceWindow {
    /// The windows open at `now`, as silences.
    public func silences(at now: Date) -> [Silence] {
        compactMap { $0.silence(at: now) }
    }
}

import Foundation
import MonitorEvaluation

extension DomainReport {
    /// The report as a run keeps it: its times and durations to the millisecond.
    ///
    /// A measured duration has 16 significant digits of noise (`0.0028232932090759277`) that deflate cannot shrink:
    /// about 8 bytes each, five per report, in every run. Milliseconds are what `history` shows and what the run's
    /// `first_seen` column keeps; the exact samples go to metrics.
    func roundedToMilliseconds() -> DomainReport {
        var report = self
        report.checkedAt = checkedAt.roundedToMilliseconds
        report.durationSeconds = durationSeconds.roundedToMilliseconds
        report.origin.wellKnown.totalSeconds = origin.wellKnown.totalSeconds.roundedToMilliseconds
        report.origin.root?.totalSeconds = (origin.root?.totalSeconds ?? 0).roundedToMilliseconds
        report.cdn?.totalSeconds = (cdn?.totalSeconds ?? 0).roundedToMilliseconds
        return report
    }
}

extension Double {
    /// Seconds to the millisecond: what the store keeps of a measured duration (see `roundedToMilliseconds()`).
    var roundedToMilliseconds: Double {
        guard isFinite else { return self }
        return (self * 1000).rounded() / 1000
    }
}

extension Date {
    /// The instant to the millisecond, as every stored time is (`StoredInstant`).
    var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.roundedToMilliseconds)
    }
}

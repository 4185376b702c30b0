import Foundation

extension DomainReport {
    /// The report as a run keeps it: its times and durations to the millisecond.
    ///
    /// A measured duration has 16 significant digits of noise (`0.0028232932090759277`) that deflate cannot shrink:
    /// about 8 bytes each, five per report, in every run. Milliseconds are what `history` shows and what the run's
    /// `first_seen` column keeps; the exact samples go to metrics.
    func roundedToMilliseconds() -> DomainReport {
        var report = self
        report.checkedAt = Date(timeIntervalSince1970: Self.milliseconds(checkedAt.timeIntervalSince1970))
        report.durationSeconds = Self.milliseconds(durationSeconds)
        report.origin.wellKnown.totalSeconds = Self.milliseconds(origin.wellKnown.totalSeconds)
        report.origin.root?.totalSeconds = Self.milliseconds(origin.root?.totalSeconds ?? 0)
        report.cdn?.totalSeconds = Self.milliseconds(cdn?.totalSeconds ?? 0)
        return report
    }

    private static func milliseconds(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds }
        return (seconds * 1000).rounded() / 1000
    }
}
